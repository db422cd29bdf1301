import { MongoError } from '../errors';
import type { QueryEnv } from '../query/mingo-options';
import type { Engine } from '../storage/engine';
import { isDoc, type Doc } from '../types';
import { cloneDoc, withIdFirst, withNumberTypesOf } from './documents';
import { findMatches } from './match';
import { applyUpdate } from './update-doc';
import { validateDocument, type WriteOptions } from './validation';

export interface OutputTarget {
  db: string;
  coll: string;
}

/** `$out: "name"` / `$merge: {into: ...}` targets: a name in the same database or `{db, coll}`. */
export function outputTarget(spec: unknown, db: string): OutputTarget {
  if (typeof spec === 'string') return { db, coll: spec };
  if (isDoc(spec) && typeof spec.coll === 'string')
    return { db: typeof spec.db === 'string' ? spec.db : db, coll: spec.coll };
  throw new MongoError('FailedToParse', 'invalid output collection specification');
}

/** `$out`: the target's documents are replaced by the results (its indexes stay). */
export function writeOut(engine: Engine, target: OutputTarget, results: Doc[], write: WriteOptions): void {
  const collection = engine.ensure(target.db, target.coll);
  for (const doc of [...collection.docs.values()]) collection.remove(doc);
  for (const result of results) {
    const doc = withIdFirst(cloneDoc(result));
    validateDocument(collection, doc, undefined, write);
    collection.insert(doc);
  }
}

interface MergeSpec {
  on: string[];
  whenMatched: unknown;
  whenNotMatched: string;
  variables?: Doc;
}

function parseMerge(spec: Doc): MergeSpec {
  const on = spec.on === undefined ? ['_id'] : Array.isArray(spec.on) ? (spec.on as string[]) : [String(spec.on)];
  return {
    on,
    whenMatched: spec.whenMatched ?? 'merge',
    whenNotMatched: String(spec.whenNotMatched ?? 'insert'),
    variables: spec.let as Doc | undefined,
  };
}

function mergeMatched(existing: Doc, incoming: Doc, spec: MergeSpec, env: QueryEnv): Doc | undefined {
  switch (spec.whenMatched) {
    case 'replace':
      return withNumberTypesOf(incoming, { ...incoming, _id: existing._id });
    case 'keepExisting':
      return undefined;
    case 'merge':
      return withNumberTypesOf(incoming, { ...existing, ...incoming, _id: existing._id });
    case 'fail': {
      const keyPattern = Object.fromEntries(spec.on.map((field) => [field, 1]));
      const keyValue = Object.fromEntries(spec.on.map((field) => [field, incoming[field]]));
      throw new MongoError(
        'DuplicateKey',
        `E11000 duplicate key error: $merge found a matching document (whenMatched: fail)`,
        { keyPattern, keyValue },
      );
    }
  }
  // A pipeline sees the incoming document as $$new (its `let` values are taken literally).
  const variables = { ...spec.variables, new: incoming };
  return applyUpdate(existing, { update: spec.whenMatched as Doc[], env: { ...env, variables } }, {}, false);
}

/** `$merge` into another collection, matching results on the `on` fields. */
export function writeMerge(
  engine: Engine,
  spec: Doc,
  db: string,
  results: Doc[],
  env: QueryEnv,
  write: WriteOptions,
): void {
  const target = outputTarget(spec.into, db);
  const collection = engine.ensure(target.db, target.coll);
  const merge = parseMerge(spec);
  for (const result of results) {
    const incoming = cloneDoc(result);
    const filter = Object.fromEntries(merge.on.map((field) => [field, incoming[field] ?? null]));
    const existing = findMatches(collection, filter, {}, { limit: 1 })[0];
    if (existing) {
      const next = mergeMatched(existing, incoming, merge, env);
      if (next) {
        validateDocument(collection, next, existing, write);
        collection.replace(existing, next);
      }
    } else if (merge.whenNotMatched === 'insert') {
      const doc = withIdFirst(incoming);
      validateDocument(collection, doc, undefined, write);
      collection.insert(doc);
    } else if (merge.whenNotMatched === 'fail') {
      throw new MongoError('BadValue', '$merge could not find a matching document in the target collection');
    }
  }
}

import { serializeDocument } from '../bson/codec';
import type { QueryEnv } from '../query/mingo-options';
import { bsonOf, copyOf, type Collection } from '../storage/collection';
import type { Doc } from '../types';
import { withIdFirst } from './documents';
import { findWriteMatches } from './match';
import { applyUpdate, applyUpdates, upsertSeed, type UpdateInput, type UpdateSpec } from './update-doc';
import { validateDocument, type WriteOptions } from './validation';

export interface UpdateStatement {
  filter: Doc;
  update: UpdateSpec;
  multi: boolean;
  upsert: boolean;
  arrayFilters?: Doc[];
  sort?: Doc;
  hint?: unknown;
  env: QueryEnv;
  write: WriteOptions;
}

export interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  /** The first affected document before and after the update (findAndModify). */
  before?: Doc;
  after?: Doc;
}

function updateInput(statement: UpdateStatement, copy: (doc: Doc) => Doc, sharesUnwritten = false): UpdateInput {
  const { update, arrayFilters, env } = statement;
  return { update, arrayFilters, env, copy, sharesUnwritten };
}

function upsert(collection: Collection, statement: UpdateStatement): UpdateOutcome {
  // The seed is built for this statement, so the update may change it without a copy.
  const input = updateInput(statement, (seed) => seed);
  const doc = withIdFirst(applyUpdate(upsertSeed(statement.filter), input, statement.filter, true));
  validateDocument(collection, doc, undefined, statement.write);
  collection.insert(doc);
  return { matched: 0, modified: 0, upsertedId: doc._id, after: doc };
}

/**
 * Applies one update statement (update command entry or findAndModify). A missing collection is
 * created (by `create`) only when an upsert inserts, as MongoDB does.
 */
export function updateDocuments(
  collection: Collection | undefined,
  statement: UpdateStatement,
  create: () => Collection,
): UpdateOutcome {
  const matches = findWriteMatches(collection, statement.filter, statement.env, {
    sort: statement.sort,
    limit: statement.multi ? undefined : 1,
    hint: statement.hint,
  });
  if (!collection || matches.length === 0)
    return statement.upsert ? upsert(collection ?? create(), statement) : { matched: 0, modified: 0 };
  const input = updateInput(statement, copyOf, true);
  const nexts = applyUpdates(matches, input, statement.filter, false);
  const outcome: UpdateOutcome = { matched: 0, modified: 0, before: matches[0] };
  for (const [i, current] of matches.entries()) {
    const next = nexts[i];
    outcome.matched++;
    outcome.after ??= next;
    // The next version's one serialization: no-op check against the stored bytes, size check, store.
    const bson = serializeDocument(next);
    if (bson.equals(bsonOf(current))) continue;
    validateDocument(collection, next, current, statement.write);
    collection.replace(current, next, bson);
    outcome.modified++;
  }
  return outcome;
}

/** Removes and returns the matching documents (validating filter and hint even without a collection). */
export function deleteDocuments(
  collection: Collection | undefined,
  filter: Doc,
  env: QueryEnv,
  options: { limit?: number; sort?: Doc; hint?: unknown },
): Doc[] {
  const matches = findWriteMatches(collection, filter, env, options);
  for (const doc of matches) collection?.remove(doc);
  return matches;
}

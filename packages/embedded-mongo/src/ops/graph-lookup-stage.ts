import { evalExpr } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { numberTypesOf, setNumberTypes } from '../bson/number-types';
import { MongoError } from '../errors';
import { rewriteFilter } from '../query/filter-rewrite';
import { isDoc, type Doc } from '../types';
import { equalityKey, joinedValues } from './field-values';
import { foreignResolver, type ForeignResolver } from './foreign-source';
import type { ForeignField } from './foreign-field';
import { runOptions, withField } from './sub-pipeline';

interface GraphSpec {
  from: string;
  startWith: unknown;
  connectFromField: string;
  connectToField: string;
  as: string;
  maxDepth?: number;
  depthField?: string;
  restrictSearchWithMatch?: Doc;
}

const REQUIRED = ['from', 'startWith', 'connectFromField', 'connectToField', 'as'];
const OPTIONAL = ['maxDepth', 'depthField', 'restrictSearchWithMatch'];

function parseGraphLookup(expr: unknown): GraphSpec {
  if (!isDoc(expr)) throw new MongoError('FailedToParse', 'the $graphLookup specification must be an object');
  const unknown = Object.keys(expr).find((key) => !REQUIRED.includes(key) && !OPTIONAL.includes(key));
  if (unknown) throw new MongoError('Location40104', `Unknown argument to $graphLookup: ${unknown}`);
  if (REQUIRED.some((key) => expr[key] === undefined)) {
    const required = "'from', 'startWith', 'connectFromField', 'connectToField' and 'as'";
    throw new MongoError('Location40105', `$graphLookup requires ${required} to be specified`);
  }
  for (const key of ['from', 'connectFromField', 'connectToField', 'as', 'depthField']) {
    if (expr[key] === undefined || typeof expr[key] === 'string') continue;
    throw new MongoError('Location40103', `expected string as argument for ${key}, found: ${typeof expr[key]}`);
  }
  const { maxDepth, restrictSearchWithMatch } = expr;
  if (maxDepth !== undefined && (typeof maxDepth !== 'number' || !Number.isInteger(maxDepth))) {
    throw new MongoError('Location40100', `maxDepth requires a nonnegative argument, found: ${String(maxDepth)}`);
  }
  if (maxDepth !== undefined && maxDepth < 0) {
    throw new MongoError('Location40101', `maxDepth requires a nonnegative argument, found: ${maxDepth}`);
  }
  if (restrictSearchWithMatch !== undefined && !isDoc(restrictSearchWithMatch)) {
    const found = typeof restrictSearchWithMatch;
    throw new MongoError('Location40185', `expected object as argument for restrictSearchWithMatch, found: ${found}`);
  }
  return expr as unknown as GraphSpec;
}

interface Found {
  doc: Doc;
  depth: number;
}

/** Breadth-first search from the start values; each document is found once, at its smallest depth (cycles end). */
class GraphSearch {
  private readonly fromPath: string[];
  private readonly restrict?: Query;

  constructor(
    private readonly spec: GraphSpec,
    private readonly connectTo: ForeignField,
    options: Options,
  ) {
    this.fromPath = spec.connectFromField.split('.');
    const filter = spec.restrictSearchWithMatch;
    if (filter) this.restrict = new Query(rewriteFilter(filter, options.collation !== undefined), options);
  }

  run(start: unknown[]): Found[] {
    const found = new Map<string, Found>();
    const queried = new Set<string>();
    let frontier = start;
    for (let depth = 0; frontier.length && (this.spec.maxDepth === undefined || depth <= this.spec.maxDepth); depth++) {
      for (const value of frontier) queried.add(equalityKey(value));
      const next: unknown[] = [];
      for (const doc of this.connectTo.find(frontier)) {
        const id = equalityKey(doc._id);
        if (found.has(id) || (this.restrict && !this.restrict.test(doc))) continue;
        found.set(id, { doc, depth });
        next.push(...joinedValues(doc, this.fromPath));
      }
      frontier = next.filter((value) => !queried.has(equalityKey(value)));
    }
    return [...found.values()];
  }
}

/** The start values: an array's elements, a missing value as null. */
function startValues(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return [value ?? null];
}

/** A found document as output: with the depth (an int64, as MongoDB gives it) when `depthField` asks for it. */
function withDepth(found: Found, depthField: string | undefined): Doc {
  if (!depthField) return found.doc;
  const output = withField(found.doc, depthField, found.depth);
  if (!depthField.includes('.')) setNumberTypes(output, { ...numberTypesOf(output), [depthField]: 'long' });
  return output;
}

/** `$graphLookup` with MongoDB's semantics, each depth's look-ups through the foreign field's index or hash. */
export function $graphLookup(coll: Iterator, expr: unknown, options: Options): Iterator {
  const spec = parseGraphLookup(expr);
  const resolver: ForeignResolver = foreignResolver(options, '$graphLookup');
  const search = new GraphSearch(spec, resolver.field(spec.from, spec.connectToField), options);
  const startOptions = runOptions(options);
  return coll.map((doc: Doc) => {
    const start = startValues(evalExpr(doc, spec.startWith, startOptions.update({ root: doc })));
    const results = search.run(start).map((found) => withDepth(found, spec.depthField));
    return withField(doc, spec.as, results);
  });
}

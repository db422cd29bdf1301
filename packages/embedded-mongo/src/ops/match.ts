import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { typeOf } from 'mingo/util';
import { MongoError } from '../errors';
import { execute, planCount, planQuery, type QueryPlan, type QuerySpec } from '../indexes/planner';
import {
  effectiveFilter,
  filterOptions,
  isSharedFilterOptions,
  toCollation,
  type QueryEnv,
} from '../query/mingo-options';
import { IdHackStage } from '../indexes/plan-stages';
import { checkListOperands } from '../query/list-operands';
import { keyString } from '../indexes/key-string';
import { valuesKey } from '../indexes/plan-cache';
import { compareKeys } from '../indexes/interval';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import { boundsCheck, type IndexBounds } from './index-bounds';
import type { MatchOptions, ReadSource } from './match-options';
import { project } from './projection';
import { findSearchMatches, isSearchQuery } from './search-match';
import { sortDocuments } from './decimal-stages';

/** A hint must name an existing, visible index, by name or key pattern (`$natural` needs none), as MongoDB checks. */
export function checkHint(collection: Collection | undefined, hint: unknown): void {
  if (!collection || hint === undefined || hint === null || hint === '$natural') return;
  if (isDoc(hint) && (Object.keys(hint).length === 0 || '$natural' in hint)) return;
  const pattern = JSON.stringify(hint);
  const exists = [...collection.indexes.values()].some(
    (index) => !index.spec.hidden && (index.name === hint || JSON.stringify(index.spec.key) === pattern),
  );
  if (!exists)
    throw new MongoError(
      'BadValue',
      'error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index',
    );
}

/** `$natural` order asked by the sort or the hint: 1 (insertion order), -1 (reverse) or undefined. */
function naturalOrder(options: MatchOptions): 1 | -1 | undefined {
  const natural =
    (isDoc(options.sort) ? options.sort.$natural : undefined) ??
    (isDoc(options.hint) ? options.hint.$natural : undefined);
  return natural === undefined ? undefined : Number(natural) < 0 ? -1 : 1;
}

/** A view's documents (already computed): filtered, sorted, skipped and limited by mingo. */
function viewMatches(docs: Doc[], query: Query, options: MatchOptions): Doc[] {
  let cursor = query.find<Doc>(naturalOrder(options) === -1 ? [...docs].reverse() : docs);
  const { $natural: _natural, ...sort } = options.sort ?? {};
  if (Object.keys(sort).length) cursor = cursor.sort(sort);
  if (options.skip) cursor = cursor.skip(options.skip);
  if (options.limit) cursor = cursor.limit(Math.abs(options.limit));
  return cursor.all();
}

/**
 * The planner's view of a read: the compiled filter, the sort with the query's collation, hint and bounds, and the
 * filter's `valuesKey` (`values`) unless the read is hinted, in `$natural` order or bounded by min/max.
 */
function querySpec(
  collection: Collection,
  filter: Doc,
  query: Query,
  env: QueryEnv,
  options: MatchOptions,
  values?: string,
): QuerySpec {
  const { $natural: _natural, ...sort } = options.sort ?? {};
  const hasBounds = !!(options.bounds?.min || options.bounds?.max);
  const planned = options.hint === undefined && naturalOrder(options) === undefined && !hasBounds;
  const inBounds = hasBounds ? boundsCheck(collection, options.hint, options.bounds as IndexBounds) : undefined;
  const sortOptions = filterOptions(env, {});
  return {
    filter,
    sort: Object.keys(sort).length ? sort : undefined,
    skip: options.skip || undefined,
    limit: options.limit ? Math.abs(options.limit) : undefined,
    projection: options.projection,
    hint: options.hint,
    collation: env.collation,
    natural: naturalOrder(options),
    matches: inBounds ? (doc) => query.test(doc) && inBounds(doc) : (doc) => query.test(doc),
    alwaysRecheck: hasBounds,
    sortDocs: (docs, pattern) => sortDocuments(docs, pattern as Record<string, 1 | -1>, sortOptions as Options),
    values: planned ? values : undefined,
  };
}

/**
 * Validates the hint and compiles the filter (so an invalid filter fails even when the collection does not exist).
 * A filter with a `valuesKey` (`values`) and the shared options (`isSharedFilterOptions`) is compiled once and kept:
 * compiling a listing page's filter again on every page was a tenth of the page's aggregate (bench README, `dbpage`).
 * A compiled filter holds its own copy of the filter and tests documents without changing (no regex is kept).
 */
function compile(source: ReadSource, filter: Doc, env: QueryEnv, options: MatchOptions, values?: string): Query {
  if (!Array.isArray(source)) checkHint(source, options.hint);
  const compileOptions = filterOptions(env, filter);
  const shared = values !== undefined && isSharedFilterOptions(compileOptions);
  const kept = shared ? compiledFilters.get(values) : undefined;
  if (kept) return kept;
  checkListOperands(filter);
  const query = new Query(effectiveFilter(filter, env), compileOptions);
  if (shared) {
    if (compiledFilters.size >= COMPILED_FILTERS_KEPT)
      compiledFilters.delete(compiledFilters.keys().next().value as string);
    compiledFilters.set(values, query);
  }
  return query;
}

/** Filters compiled with the shared options, by `valuesKey`; the oldest goes first. */
const compiledFilters = new Map<string, Query>();
const COMPILED_FILTERS_KEPT = 256;

/** Values an `{_id: value}` filter can find by the canonical `_id` alone (query equality is key equality). */
const ID_HACK_TYPES = new Set(['string', 'number', 'boolean', 'date', 'objectid', 'binary']);

/**
 * The `_id` index key of an `{_id: value}` condition that a key look-up answers: a value whose query equality is key
 * equality (`ID_HACK_TYPES`, not NaN), a string only without a collation (`_id` indexes carry none, so a collated
 * string equality must go through the planner).
 */
function idPointKey(id: unknown, env: QueryEnv): string | undefined {
  const type = typeOf(id);
  if (!ID_HACK_TYPES.has(type) || Number.isNaN(id) || (type === 'string' && toCollation(env.collation)))
    return undefined;
  return keyString([id]);
}

/** Whether the read's options leave a single `_id` look-up its plan: no hint, bounds, skip or `$natural` order. */
function readsOnePoint(options: MatchOptions): boolean {
  if (options.hint !== undefined || options.skip || options.bounds?.min || options.bounds?.max) return false;
  return naturalOrder(options) === undefined;
}

/** MongoDB's IDHACK plan for a plain `{_id: value}` filter (`idPointKey`, `readsOnePoint`). */
function idHackPlan(
  collection: Collection,
  filter: Doc,
  env: QueryEnv,
  options: MatchOptions,
): QueryPlan<Doc> | undefined {
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id' || !readsOnePoint(options)) return undefined;
  const key = idPointKey(filter._id, env);
  if (key === undefined) return undefined;
  const root = new IdHackStage(collection, key);
  return { root, buffered: [], rejected: [], keyPattern: { _id: 1 }, fromCache: false, shape: 'IDHACK' };
}

/** The plan of a read on a collection (explain shows it; find, count and writes run it). */
export function planRead(collection: Collection, filter: Doc, env: QueryEnv, options: MatchOptions): QueryPlan<Doc> {
  const idHack = idHackPlan(collection, filter, env, options);
  if (idHack) return idHack;
  const values = valuesKey(filter);
  const query = compile(collection, filter, env, options, values);
  return planQuery(collection, querySpec(collection, filter, query, env, options, values));
}

type CountPlan = QueryPlan<number>;

/**
 * The plan of a count (keys only when the index bounds are exact). A repeated count (a listing's total) is compiled
 * and planned once for its values, as a repeated read is (`compile`, the plan cache's kept solutions).
 */
export function planCountRead(collection: Collection, filter: Doc, env: QueryEnv, options: MatchOptions): CountPlan {
  const values = valuesKey(filter);
  const query = compile(collection, filter, env, options, values);
  return planCount(collection, querySpec(collection, filter, query, env, options, values));
}

/**
 * How many documents of the collection match (after skip, up to limit): counted from index keys when the
 * bounds are exact (`count`; also what `countDocuments`' `$match` + `$group` amounts to).
 */
export function countMatches(collection: Collection, filter: Doc, env: QueryEnv, options: MatchOptions): number {
  if (isSearchQuery(collection, filter, options)) return findSearchMatches(collection, filter, env, options).length;
  const [count] = execute(planCountRead(collection, filter, env, options));
  return count ?? 0;
}

/**
 * The documents a write's filter matches (update, findAndModify, delete). A filter with an `_id` equality that a key
 * look-up answers (`idPointKey`) among other conditions (`{_id, version}`, a conditional write) reads that one
 * document by its key and tests it against the whole filter, without planning the read: the planner would choose the
 * `_id` index's point for it anyway (`idPointSolution`), but only after analysing the filter and building its stages,
 * most of such a write's cost in the profiles (bench/README.md, `stockadj2`). The `_id` index's use is counted as the
 * plan's would be (`$indexStats`).
 */
export function findWriteMatches(source: ReadSource, filter: Doc, env: QueryEnv, options: MatchOptions): Doc[] {
  const point = Array.isArray(source) || !source ? undefined : idPointMatch(source, filter, env, options);
  return point ?? findMatches(source, filter, env, options);
}

/** `findWriteMatches`' look-up: undefined when it does not apply (the read is then planned). */
function idPointMatch(collection: Collection, filter: Doc, env: QueryEnv, options: MatchOptions): Doc[] | undefined {
  if (!('_id' in filter) || !readsOnePoint(options) || hasSort(options) || isSearchQuery(collection, filter, options))
    return undefined;
  const key = idPointKey(filter._id, env);
  const idIndex = collection.indexes.get('_id_');
  if (key === undefined || !idIndex) return undefined;
  const matches = testBesidesId(filter, env, options);
  idIndex.accesses++;
  const doc = collection.get(key);
  return doc && matches(doc) ? [doc] : [];
}

function hasSort(options: MatchOptions): boolean {
  return !!options.sort && Object.keys(options.sort).length > 0;
}

/**
 * The test of a document whose `_id` matched against the filter's other conditions. When they are all equalities of
 * a top-level field to a value of `ID_HACK_TYPES`, and the document's values there are neither arrays nor documents,
 * index keys are compared (the key equality the `_id` look-up relies on), with no query compiled. Anything else is
 * mingo's test of the whole filter, as the planned read's fetch makes it; it is compiled before the look-up, so that
 * an invalid filter fails whether or not the document exists.
 */
function testBesidesId(filter: Doc, env: QueryEnv, options: MatchOptions): (doc: Doc) => boolean {
  const conditions = Object.entries(filter)
    .filter(([field]) => field !== '_id')
    .map(([field, value]) => ({ field, key: isPlainField(field) ? idPointKey(value, env) : undefined }));
  let query = conditions.some(({ key }) => key === undefined) ? compile(undefined, filter, env, options) : undefined;
  const mingoTest = (doc: Doc) => (query ??= compile(undefined, filter, env, options)).test(doc);
  if (query) return mingoTest;
  return (doc) => {
    if (conditions.some(({ field }) => Array.isArray(doc[field]) || isDoc(doc[field]))) return mingoTest(doc);
    return conditions.every(({ field, key }) => doc[field] !== undefined && keyString([doc[field]]) === key);
  };
}

const isPlainField = (field: string) => !field.startsWith('$') && !field.includes('.');

/** Documents of the source matching the filter, with sort/skip/limit/projection applied, all at once. */
export function findMatches(source: ReadSource, filter: Doc, env: QueryEnv, options: MatchOptions = {}): Doc[] {
  return [...findLazily(source, filter, env, options).docs];
}

export interface LazyFind {
  /** Results produced as they are pulled (by the cursor's batches). */
  docs: Iterable<Doc>;
  /** Key pattern of the index read, if one index is (returnKey). */
  keyPattern?: Doc;
}

/** Like findMatches, but the documents are read from the plan only as they are pulled. */
export function findLazily(source: ReadSource, filter: Doc, env: QueryEnv, options: MatchOptions = {}): LazyFind {
  // Text and geo queries are answered through their own indexes (src/ops/search-match.ts).
  if (isSearchQuery(source, filter, options)) return { docs: findSearchMatches(source, filter, env, options) };
  if (!source) {
    compile(source, filter, env, options); // an invalid filter fails even when the collection does not exist
    return { docs: [] };
  }
  if (Array.isArray(source)) {
    const docs = viewMatches(source, compile(source, filter, env, options), options);
    return { docs: hasProjection(options) ? project(docs, options.projection as Doc, env, filter) : docs };
  }
  const { docs, keyPattern } = readCollection(source, filter, env, options);
  const projected = hasProjection(options) ? projectLazily(docs, options.projection as Doc, env, filter) : docs;
  return { docs: projected, keyPattern };
}

/** A collection's matches before projection: by `_id` look-ups (`idPointsRead`), else through the planned read. */
function readCollection(collection: Collection, filter: Doc, env: QueryEnv, options: MatchOptions): LazyFind {
  const byId = idPointsRead(collection, filter, env, options);
  if (byId) return { docs: byId, keyPattern: { _id: 1 } };
  const plan = planRead(collection, filter, env, options);
  return { docs: execute(plan), keyPattern: plan.keyPattern };
}

/**
 * `{_id: {$in: [...]}}` whose values a key look-up answers (`idPointKey`), with no sort, hint, skip, bounds or
 * `$natural` order: the documents read by key, one at a time as they are pulled, in the `_id` index's order (each
 * value once), counted as a use of `_id_`. That is what its plan reads (FETCH with no filter, the bounds being exact,
 * over an IXSCAN of `_id_` seeking each point in order), without analysing the filter, building the plan's stages or
 * compiling a filter that no document is tested against: that was most of the storefront's `$unionWith` of two
 * counters by `_id` (bench README, `dbpage`). Explain plans the read (FETCH and IXSCAN, as MongoDB shows it).
 */
function idPointsRead(
  collection: Collection,
  filter: Doc,
  env: QueryEnv,
  options: MatchOptions,
): Iterable<Doc> | undefined {
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id' || !isDoc(filter._id) || !readsOnePoint(options) || hasSort(options))
    return undefined;
  const condition = filter._id;
  const values = condition.$in;
  if (Object.keys(condition).length !== 1 || !Array.isArray(values)) return undefined;
  const points = new Map<string, unknown>();
  for (const value of values) {
    const key = idPointKey(value, env);
    if (key === undefined) return undefined;
    points.set(key, value);
  }
  const idIndex = collection.indexes.get('_id_');
  if (!idIndex) return undefined;
  idIndex.accesses++;
  const ordered = [...points].sort(([, a], [, b]) => compareKeys(a, b)).map(([key]) => key);
  return lookUpEach(collection, ordered, options.limit ? Math.abs(options.limit) : Infinity);
}

/** The documents stored under `keys`, in that order, up to `limit`, each looked up when pulled. */
function* lookUpEach(collection: Collection, keys: string[], limit: number): Generator<Doc> {
  let found = 0;
  for (const key of keys) {
    if (found >= limit) return;
    const doc = collection.get(key);
    if (!doc) continue;
    found++;
    yield doc;
  }
}

function hasProjection(options: MatchOptions): boolean {
  return !!options.projection && Object.keys(options.projection).length > 0;
}

/** Projects in chunks (one mingo projection per chunk, not per document) as the results are pulled. */
function* projectLazily(docs: Iterable<Doc>, projection: Doc, env: QueryEnv, filter: Doc): Generator<Doc> {
  let chunk: Doc[] = [];
  for (const doc of docs) {
    chunk.push(doc);
    if (chunk.length < PROJECTION_CHUNK) continue;
    yield* project(chunk, projection, env, filter);
    chunk = [];
  }
  if (chunk.length) yield* project(chunk, projection, env, filter);
}

const PROJECTION_CHUNK = 64;

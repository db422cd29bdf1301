import { ObjectId } from 'bson';
import type { Collection } from '../storage/collection';
import { isDoc } from '../types';
import type { Index } from './index';
import type { IndexSolution, QuerySpec, Solution } from './solutions';

/*
 * The plan cache: per collection, the winning choice of each query shape, kept until the indexes change or
 * the collection has seen many writes.
 */

/** What the cache remembers of a plan: the index (or indexes of an `$or`) it reads. */
type Choice = { kind: 'collscan' } | { kind: 'index'; name: string } | { kind: 'or'; names: string[] };

/** A cached choice and the works its plan took in the trial that chose it. */
export interface CacheEntry {
  choice: Choice;
  works: number;
  /**
   * The chosen index's solutions (bounds, exactness, scan direction) of queries of this shape, by their values
   * (`valuesKey`), each with the index's `arrayState` it was made under (`keptSolution`).
   */
  solutions?: KeptSolutions;
}

/** Index solutions by key, each with its index's `arrayState` when it was made; the oldest goes first. */
type KeptSolutions = Map<string, { solution: IndexSolution; arrayState: number }>;

/**
 * The solution kept under `key`, if its index is still in the state it was made under (no key field started or
 * stopped holding arrays since).
 */
function keptIn(kept: KeptSolutions | undefined, key: string): IndexSolution | undefined {
  const found = kept?.get(key);
  return found && found.arrayState === found.solution.index.arrayState ? found.solution : undefined;
}

function keepIn(kept: KeptSolutions, key: string, solution: IndexSolution, limit: number): void {
  if (kept.size >= limit) kept.delete(kept.keys().next().value as string);
  kept.set(key, { solution, arrayState: solution.index.arrayState });
}

/** Solutions kept per cache entry. */
const SOLUTIONS_KEPT = 32;

/** The solution kept for the query's values in the entry, if it was made from the index `index` as it is now. */
export function keptSolution(entry: CacheEntry, values: string, index: Index | undefined): IndexSolution | undefined {
  const kept = keptIn(entry.solutions, values);
  return kept?.index === index ? kept : undefined;
}

export function keepSolution(entry: CacheEntry, values: string, solution: IndexSolution): void {
  keepIn((entry.solutions ??= new Map() as KeptSolutions), values, solution, SOLUTIONS_KEPT);
}

interface PlanCache {
  signature: string;
  writesAtStart: number;
  entries: Map<string, CacheEntry>;
  /**
   * The only index solution of queries that have one (no trial, so no entry: MongoDB caches none), by shape and
   * values (`singleKey`), each with the index's `arrayState` it was made under; invisible to explain.
   */
  singles: KeptSolutions;
}

/** Single solutions kept per collection. */
const SINGLES_KEPT = 256;

export const singleKey = (shape: string, values: string): string => `${shape}\0${values}`;

/** The single solution kept for `key` (`keptIn`). */
export function keptSingle(cache: PlanCache, key: string): IndexSolution | undefined {
  return keptIn(cache.singles, key);
}

export function keepSingle(cache: PlanCache, key: string, solution: IndexSolution): void {
  keepIn(cache.singles, key, solution, SINGLES_KEPT);
}

/** The cache is flushed after this many writes to the collection, as the data may have changed shape. */
const PLAN_CACHE_WRITE_LIMIT = 1000;
const planCaches = new WeakMap<Collection, PlanCache>();

/** Changes whenever an index is created, dropped, hidden or unhidden, or becomes multikey. */
function indexSignature(collection: Collection): string {
  const state = (index: Index): string => `${index.name}:${!!index.spec.hidden}:${index.multiKey}`;
  return [...collection.indexes.values()].map(state).join('|');
}

function collectionWrites(collection: Collection): number {
  return collection.indexes.get('_id_')?.writes ?? 0;
}

/** The collection's plan cache, emptied first if its indexes changed or after many writes. */
export function planCache(collection: Collection): PlanCache {
  const signature = indexSignature(collection);
  const writes = collectionWrites(collection);
  let cache = planCaches.get(collection);
  if (!cache || cache.signature !== signature || writes - cache.writesAtStart > PLAN_CACHE_WRITE_LIMIT) {
    cache = { signature, writesAtStart: writes, entries: new Map(), singles: new Map() };
    planCaches.set(collection, cache);
  }
  return cache;
}

/**
 * Values replaced by their type: queries differing only in values share a plan (MongoDB's query shape). An array's
 * shape is the set of its items' shapes. Built as one string in a single pass: stringifying each level's shape again
 * escaped the quotes of the level below, which doubled the length per level of nesting (a filter nested 27 arrays
 * deep ran out of string length).
 */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `[${[...new Set(value.map(shapeOf))].sort().join(',')}]`;
  if (isDoc(value)) {
    let shape = '';
    for (const key of Object.keys(value)) shape += `${shape ? ',' : ''}${JSON.stringify(key)}:${shapeOf(value[key])}`;
    return `{${shape}}`;
  }
  if (value instanceof RegExp) return JSON.stringify(regexShape(value));
  if (value === null) return '"null"';
  // A `typeof` name needs no escaping: quoted directly, as JSON.stringify would (one call fewer per value).
  return typeof value === 'object' ? JSON.stringify(value.constructor?.name) : `"${typeof value}"`;
}

/** Anchored and unanchored regexes plan differently. */
const regexShape = (regex: RegExp): string => `regex:${regex.source.startsWith('^')}:${regex.flags}`;

/**
 * The filter written out with its values and their types, or undefined when it holds a value of another type than
 * those written here (a regex, BinData, a Decimal128, a wide int64, MinKey, …) or a `$regex`: two filters with the same
 * key have the same structure and values, so the same bounds on an index (in its same state) and the same compiled
 * test. Number types are left out (1 and 1.0 bound and match alike); -0 is kept apart. Nor for a filter whose key
 * would exceed `VALUES_KEY_LIMIT` characters (a long `$in`, rarely repeated): its key would cost as much as it saves.
 */
export function valuesKey(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'object':
      return objectKey(value);
    default:
      return undefined;
  }
}

const VALUES_KEY_LIMIT = 2000;

function objectKey(value: object | null): string | undefined {
  if (value === null) return 'null';
  if (value instanceof Date) return `Date(${value.getTime()})`;
  if (value instanceof ObjectId) return `ObjectId(${value.toHexString()})`;
  const array = Array.isArray(value);
  if (!array && !isDoc(value)) return undefined;
  let key = array ? '[' : '{';
  for (const [name, item] of Object.entries(value)) {
    const itemKey = name === '$regex' ? undefined : valuesKey(item);
    if (itemKey === undefined) return undefined;
    key += array ? `${itemKey},` : `${JSON.stringify(name)}:${itemKey},`;
    if (key.length > VALUES_KEY_LIMIT) return undefined;
  }
  return key + (array ? ']' : '}');
}

export function queryShape(spec: QuerySpec): string {
  const projection = Object.keys(spec.projection ?? {}).sort();
  return JSON.stringify([shapeOf(spec.filter), spec.sort ?? {}, projection, spec.collation ?? null, !!spec.counting]);
}

export function choiceOf(solution: Solution): Choice {
  if (solution.kind === 'index') return { kind: 'index', name: solution.index.name };
  if (solution.kind === 'or') return { kind: 'or', names: solution.branches.map((branch) => branch.index.name) };
  return { kind: 'collscan' };
}

export function matchesChoice(solution: Solution, choice: Choice): boolean {
  return JSON.stringify(choiceOf(solution)) === JSON.stringify(choice);
}

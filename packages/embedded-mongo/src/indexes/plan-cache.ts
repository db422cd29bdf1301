import type { Collection } from '../storage/collection';
import { isDoc } from '../types';
import type { Index } from './index';
import type { QuerySpec, Solution } from './solutions';

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
}

interface PlanCache {
  signature: string;
  writesAtStart: number;
  entries: Map<string, CacheEntry>;
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
    cache = { signature, writesAtStart: writes, entries: new Map() };
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

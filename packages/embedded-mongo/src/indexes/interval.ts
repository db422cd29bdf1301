import { ObjectId } from 'bson';
import * as mingoUtil from 'mingo/util';
import { compareNumeric, isBsonNumber, isNumeric } from '../bson/decimal-number';

// Read once: mingo's CommonJS build exports through property getters, which each call would run again (a tenth of
// the time it took to open a large store, where index builds compare keys tens of millions of times).
const { compare, typeOf } = mingoUtil;

/** Bounds beyond every value of every type (MongoDB's MinKey and MaxKey in index bounds). */
export const MIN_KEY = Symbol('MinKey');
export const MAX_KEY = Symbol('MaxKey');

/** An interval of index key values, low <= high in MongoDB order; MIN_KEY / MAX_KEY leave a side open. */
export interface Interval {
  low: unknown;
  high: unknown;
  lowInclusive: boolean;
  highInclusive: boolean;
}

export const FULL_INTERVAL: Interval = { low: MIN_KEY, high: MAX_KEY, lowInclusive: true, highInclusive: true };

export function pointInterval(value: unknown): Interval {
  return { low: value, high: value, lowInclusive: true, highInclusive: true };
}

export function isPoint(interval: Interval): boolean {
  return interval.lowInclusive && interval.highInclusive && compareValues(interval.low, interval.high) === 0;
}

export function isFull(interval: Interval): boolean {
  return interval.low === MIN_KEY && interval.high === MAX_KEY;
}

/** mingo's rank of a type in its order of values (types it does not list sort last, by name). */
const TYPE_RANKS: Record<string, number> = {
  null: 2,
  number: 3,
  string: 4,
  symbol: 5,
  object: 6,
  array: 7,
  arraybuffer: 8,
};
const ARRAY_RANK = TYPE_RANKS.array;
const typeRank = (value: unknown): number => TYPE_RANKS[typeOf(value)] ?? Number.MAX_VALUE;

/**
 * A total order of index keys: mingo's order of values, except that NaN sorts before every other number
 * (as in MongoDB; mingo finds it equal to all) and that an array key (from nested arrays) sorts with the
 * arrays, by type (mingo's `compare` would place it by its elements, which is no total order).
 */
export function compareKeys(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  // The commonest keys, ordered as mingo orders them (strings by code unit, false before true, ObjectIds by their
  // hex; equal ones returned above), without its type dispatch or an ObjectId's hex string per comparison.
  if (typeof a === typeof b && (typeof a === 'string' || typeof a === 'boolean'))
    return (a as string) < (b as string) ? -1 : 1;
  if (a instanceof ObjectId && b instanceof ObjectId) return Buffer.compare(a.id, b.id);
  if (isBsonNumber(a) || isBsonNumber(b)) return compareWithBsonNumber(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) {
    const [rankA, rankB] = [Array.isArray(a) ? ARRAY_RANK : typeRank(a), Array.isArray(b) ? ARRAY_RANK : typeRank(b)];
    return rankA < rankB ? -1 : 1;
  }
  return compare(a, b);
}

/** A Decimal128 or a wide int64 is a number to MongoDB: ordered among numbers by exact value, with them among types. */
function compareWithBsonNumber(a: unknown, b: unknown): number {
  if (isNumeric(a) && isNumeric(b)) return compareNumeric(a, b);
  const rank = (value: unknown): number =>
    isBsonNumber(value) ? TYPE_RANKS.number : Array.isArray(value) ? ARRAY_RANK : typeRank(value);
  return rank(a) < rank(b) ? -1 : 1;
}

/** Every array key: from the empty array up to (excluded) the next type, binary data. */
export const ARRAY_KEYS: Interval = { low: [], high: new Uint8Array(0), lowInclusive: true, highInclusive: false };

/** The order of index keys, extended by MIN_KEY and MAX_KEY. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === MIN_KEY || b === MAX_KEY) return -1;
  if (a === MAX_KEY || b === MIN_KEY) return 1;
  return compareKeys(a, b);
}

/** Where the low ends of two intervals lie relative to each other (an exclusive low starts later). */
function compareLows(a: Interval, b: Interval): number {
  return compareValues(a.low, b.low) || (a.lowInclusive === b.lowInclusive ? 0 : a.lowInclusive ? -1 : 1);
}

function overlapsOrTouches(a: Interval, b: Interval): boolean {
  const cmp = compareValues(b.low, a.high);
  return cmp < 0 || (cmp === 0 && (a.highInclusive || b.lowInclusive));
}

/** Sorted, non-overlapping intervals covering the same values as `intervals` (an ordered interval list). */
export function unionIntervals(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort(compareLows);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (!last || !overlapsOrTouches(last, interval)) {
      merged.push({ ...interval });
      continue;
    }
    const cmp = compareValues(interval.high, last.high);
    if (cmp > 0 || (cmp === 0 && interval.highInclusive)) {
      last.high = interval.high;
      last.highInclusive = interval.highInclusive || (cmp === 0 && last.highInclusive);
    }
  }
  return merged;
}

function intersectTwo(a: Interval, b: Interval): Interval | undefined {
  const lowCmp = compareValues(a.low, b.low);
  const low = lowCmp > 0 || (lowCmp === 0 && !a.lowInclusive) ? a : b;
  const highCmp = compareValues(a.high, b.high);
  const high = highCmp < 0 || (highCmp === 0 && !a.highInclusive) ? a : b;
  const cmp = compareValues(low.low, high.high);
  if (cmp > 0 || (cmp === 0 && !(low.lowInclusive && high.highInclusive))) return undefined;
  return { low: low.low, lowInclusive: low.lowInclusive, high: high.high, highInclusive: high.highInclusive };
}

/** Values in both ordered interval lists. */
function intersectIntervals(a: Interval[], b: Interval[]): Interval[] {
  const result: Interval[] = [];
  for (const left of a) {
    for (const right of b) {
      const both = intersectTwo(left, right);
      if (both) result.push(both);
    }
  }
  return unionIntervals(result);
}

/** Whether the value lies in one of the intervals. */
export function inIntervals(value: unknown, intervals: Interval[]): boolean {
  return intervals.some((interval) => {
    const low = compareValues(value, interval.low);
    const high = compareValues(value, interval.high);
    return (low > 0 || (low === 0 && interval.lowInclusive)) && (high < 0 || (high === 0 && interval.highInclusive));
  });
}

/** Whether the values of `inner` all lie in `outer`. */
export function containedIn(inner: Interval[], outer: Interval[]): boolean {
  const both = intersectIntervals(inner, outer);
  const whole = unionIntervals(inner);
  return both.length === whole.length && both.every((interval, i) => sameInterval(interval, whole[i]));
}

function sameInterval(a: Interval, b: Interval): boolean {
  const sameEnds = compareValues(a.low, b.low) === 0 && compareValues(a.high, b.high) === 0;
  return sameEnds && a.lowInclusive === b.lowInclusive && a.highInclusive === b.highInclusive;
}

/** Values in every one of the ordered interval lists. */
export function intersectAll(lists: Interval[][]): Interval[] {
  return lists.slice(1).reduce(intersectIntervals, lists[0]);
}

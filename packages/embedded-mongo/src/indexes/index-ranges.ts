import { Binary, ObjectId } from 'bson';
import { binDataText } from '../bson/comparable-binary';
import type { Doc } from '../types';
import type { Index, KeyRange } from './index';
import { isPoint, MAX_KEY, MIN_KEY, type Interval } from './interval';

/** Per key field, an ordered interval list (ascending values); `[]` on a field means nothing can match. */
export type KeyBounds = Interval[][];

/** Point combinations beyond this are not expanded into seeks: later fields are checked key by key. */
const MAX_RANGES = 10_000;

/** A field's intervals in the order a scan meets them (the index's direction for that field, and the scan's). */
function inScanOrder(index: Index, bounds: KeyBounds, field: number, forward: boolean): Interval[] {
  return index.directions[field] > 0 === forward ? bounds[field] : [...bounds[field]].reverse();
}

/**
 * The key ranges a scan walks, in scan order: every combination of the point values of the leading fields
 * (an equality or `$in` on each), then each interval of the next field.
 */
export function keyRanges(index: Index, bounds: KeyBounds, forward: boolean): KeyRange[] {
  if (bounds.some((intervals) => intervals.length === 0)) return [];
  let field = 0;
  let combinations = 1;
  const expandable = (i: number): boolean => i < bounds.length - 1 && bounds[i].every(isPoint);
  while (expandable(field) && combinations * bounds[field].length * bounds[field + 1].length <= MAX_RANGES) {
    combinations *= bounds[field].length;
    field++;
  }
  let prefixes: unknown[][] = [[]];
  for (let i = 0; i < field; i++) {
    const points = inScanOrder(index, bounds, i, forward);
    prefixes = prefixes.flatMap((prefix) => points.map((point) => [...prefix, point.low]));
  }
  const last = inScanOrder(index, bounds, field, forward);
  return prefixes.flatMap((prefix) => last.map((interval) => ({ prefix, interval })));
}

/** A bound value as MongoDB prints it in explain's indexBounds. */
function formatValue(value: unknown): string {
  if (value === MIN_KEY) return 'MinKey';
  if (value === MAX_KEY) return 'MaxKey';
  if (typeof value === 'number') {
    if (value === Infinity) return 'inf.0';
    if (value === -Infinity) return '-inf.0';
    if (Number.isNaN(value)) return 'nan.0';
    return String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (value instanceof RegExp) return String(value);
  if (value instanceof Uint8Array) return binDataText(new Binary(value));
  if (value instanceof Binary) return binDataText(value);
  return JSON.stringify(value) ?? String(value);
}

/** `[1, 5)`: the bound met first comes first (the high one when the scan descends). */
function formatInterval(interval: Interval, ascending: boolean): string {
  const { low, high, lowInclusive, highInclusive } = interval;
  const [from, to] = ascending ? [low, high] : [high, low];
  const [fromInclusive, toInclusive] = ascending ? [lowInclusive, highInclusive] : [highInclusive, lowInclusive];
  return `${fromInclusive ? '[' : '('}${formatValue(from)}, ${formatValue(to)}${toInclusive ? ']' : ')'}`;
}

/** explain's `indexBounds`: per field, its intervals in scan order, e.g. `{a: ['[1, 1]'], b: ['(5, inf.0]']}`. */
export function formatBounds(index: Index, bounds: KeyBounds, forward: boolean): Doc {
  return Object.fromEntries(
    index.fields.map((field, i) => {
      const ascending = index.directions[i] > 0 === forward;
      return [field, inScanOrder(index, bounds, i, forward).map((interval) => formatInterval(interval, ascending))];
    }),
  );
}

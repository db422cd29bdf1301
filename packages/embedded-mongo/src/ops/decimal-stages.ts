import { evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import { $group as mingoGroup, $sort as mingoSort } from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';
import { compare, resolve } from 'mingo/util';
import { bsonNumbersSeen, containsBsonNumber } from '../bson/decimal-number';
import { compareKeys } from '../indexes/interval';
import { keyString } from '../indexes/key-string';
import { collator } from '../query/collation';
import type { Doc } from '../types';

/**
 * mingo's `$sort` and `$group` (and `$sum`, `$avg`: `query/decimal-accumulators.ts`) know nothing of Decimal128 (a bson class to mingo): a sort would put
 * decimals after every number in text order, a group keep `1` and `Decimal128("1.0")` apart.
 * Where a decimal takes part these follow MongoDB (decimals are numbers, compared by value); elsewhere they are
 * mingo's own, unchanged.
 */

type SortSpec = Record<string, 1 | -1>;

/** One sort key's order: MongoDB's order of values (`compareKeys`), strings under the collation if any. */
function valueOrder(options: Options): (a: unknown, b: unknown) => number {
  const strings = options.collation ? collator(options.collation as unknown as Doc) : undefined;
  return (a, b) => {
    if (strings && typeof a === 'string' && typeof b === 'string') return strings.compare(a, b);
    // Arrays (MongoDB sorts by their least or greatest element) are left to mingo's comparison.
    return Array.isArray(a) || Array.isArray(b) ? compare(a, b) : compareKeys(a, b);
  };
}

/**
 * The documents in the sort's order: mingo's `$sort`, or a stable sort by value when a key holds a decimal or `Long`
 * (looked for only once this thread has seen one).
 */
export function sortDocuments(docs: Doc[], spec: SortSpec, options: Options): Doc[] {
  if (!bsonNumbersSeen()) return mingoSort(Lazy(docs), spec, options).collect<Doc>();
  const paths = Object.keys(spec);
  const rows = docs.map((doc, index) => ({ doc, index, values: paths.map((path) => resolve(doc, path) ?? null) }));
  if (!rows.some((row) => row.values.some(containsBsonNumber))) {
    return mingoSort(Lazy(docs), spec, options).collect<Doc>();
  }
  const order = valueOrder(options);
  rows.sort((a, b) => {
    for (let key = 0; key < paths.length; key++) {
      const cmp = order(a.values[key], b.values[key]) * spec[paths[key]];
      if (cmp !== 0) return cmp;
    }
    return a.index - b.index;
  });
  return rows.map((row) => row.doc);
}

/** The `$sort` stage through `sortDocuments`. */
export const $sort: typeof mingoSort = (collection, spec, options) =>
  collection.transform((docs) => Lazy(sortDocuments(docs as Doc[], spec, options)));

/** Each document's group key, computed by the `$group` stage below before mingo groups by it. */
const groupKeys = new WeakMap<object, unknown>();

/** Reads the key `$group` put aside for the document (an expression operator of this server's pipelines). */
export const $groupKeyOf = (obj: object, _expr: unknown, _options: Options): unknown => groupKeys.get(obj);

/**
 * `$group`: mingo groups by its own equality, where `Decimal128("1.0")` and `1` differ. The keys are computed here
 * first; where one holds a decimal, every key is replaced by the first of the keys MongoDB finds equal to it (equal
 * `keyString`s: numbers by value, at any depth in a key document), so mingo groups them together and the group
 * shows the first key seen, as MongoDB does.
 */
export const $group: typeof mingoGroup = (collection, spec, options) => {
  // Computing the keys apart doubles their cost: not done while this thread has seen no decimal or wide int64.
  if (!bsonNumbersSeen()) return mingoGroup(collection, spec, options);
  return collection.transform((docs) => {
    const keys = (docs as Doc[]).map((doc) => evalExpr(doc, spec._id, options));
    const merged = keys.some(containsBsonNumber) ? firstOfEqual(keys) : keys;
    (docs as Doc[]).forEach((doc, i) => groupKeys.set(doc, merged[i]));
    return mingoGroup(Lazy(docs), { ...spec, _id: { $groupKeyOf: 1 } }, options);
  });
};

function firstOfEqual(keys: unknown[]): unknown[] {
  const first = new Map<string, unknown>();
  return keys.map((key) => {
    const text = keyString([key]);
    if (!first.has(text)) first.set(text, key);
    return first.get(text);
  });
}

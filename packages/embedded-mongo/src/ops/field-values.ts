import type { Decimal128 } from 'bson';
import { canonicalDecimal } from '../bson/decimal-number';
import { collationKey } from '../query/collation';
import { keyString } from '../indexes/key-string';
import { isDoc, type Doc } from '../types';

const isDigits = (part: string): boolean => /^\d+$/.test(part);

/**
 * The values an equality condition on a dotted path tests in a document, as MongoDB's query
 * matcher walks it: arrays along the path are traversed into their sub-documents (or indexed by a
 * numeric part), an array at the end is tested whole and element by element, and `undefined`
 * stands for a missing field (which `null` matches).
 */
export function matchedValues(doc: unknown, path: string[]): unknown[] {
  const values: unknown[] = [];
  collectMatched(doc, path, 0, values);
  return values;
}

function collectMatched(value: unknown, path: string[], depth: number, out: unknown[]): void {
  if (depth === path.length) {
    out.push(value);
    if (Array.isArray(value)) out.push(...(value as unknown[]));
    return;
  }
  const part = path[depth];
  if (Array.isArray(value)) {
    if (isDigits(part) && Number(part) < value.length) collectMatched(value[Number(part)], path, depth + 1, out);
    for (const element of value) if (isDoc(element)) collectMatched(element[part], path, depth + 1, out);
    return;
  }
  collectMatched(isDoc(value) ? value[part] : undefined, path, depth + 1, out);
}

/**
 * The values `$lookup` joins on from a local field (MongoDB's visitAllValuesAtPath): arrays along
 * the path and at its end are expanded one level; `undefined` values are skipped.
 */
export function joinedValues(doc: unknown, path: string[]): unknown[] {
  const values: unknown[] = [];
  collectJoined(doc, path, 0, values);
  return values;
}

function collectJoined(value: unknown, path: string[], depth: number, out: unknown[]): void {
  if (depth === path.length) {
    if (Array.isArray(value)) out.push(...(value as unknown[]).filter((element) => element !== undefined));
    else if (value !== undefined) out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const element of value) if (isDoc(element)) collectJoined(element, path, depth, out);
  } else if (isDoc(value)) {
    collectJoined(value[path[depth]], path, depth + 1, out);
  }
}

/** Strings compared under a collation of strength 1 or 2 fold to one key (as collated indexes do). */
function collated(value: unknown, collation: Doc): unknown {
  if (typeof value === 'string') return collationKey(value, collation);
  if (Array.isArray(value)) return value.map((element) => collated(element, collation));
  if (!isDoc(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, collated(item, collation)]));
}

/** Keys of scalars without serialization (the hash of a foreign collection computes one per document). */
function scalarKey(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return `s${value}`;
    case 'number':
      return `n${value === 0 ? 0 : value}`;
    case 'bigint':
      return `n${Number(value)}`;
    case 'boolean':
      return value ? 't' : 'f';
    case 'undefined':
      return 'z';
    default:
      break; // null and objects, below
  }
  if (value === null) return 'z';
  const type = (value as { _bsontype?: string })._bsontype;
  // A decimal's canonical number is a JS number's own text when it equals one (no JS number's text has an `E`).
  if (type === 'Decimal128') return `n${canonicalDecimal(value as Decimal128)}`;
  return type === 'Long' || type === 'Int32' || type === 'Double' ? `n${Number(value)}` : undefined;
}

/**
 * The hash key of a value for equality: values MongoDB considers equal (1, 1.0, NumberLong(1)) share
 * it, and missing shares null's key, since `{field: null}` matches both.
 */
export function equalityKey(value: unknown, collation?: Doc): string {
  const compared = collation ? collated(value, collation) : value;
  return scalarKey(compared) ?? `o${keyString([compared])}`;
}

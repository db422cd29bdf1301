import { compare } from 'mingo/util';
import { MongoError } from '../errors';
import { pathValues } from '../indexes/key-extractor';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';

export interface IndexBounds {
  min?: Doc;
  max?: Doc;
}

/** The key pattern a hint names (by index name or by pattern). */
export function hintedPattern(collection: Collection, hint: unknown): Doc {
  if (isDoc(hint) && Object.keys(hint).length > 0 && !('$natural' in hint)) return hint;
  const index = typeof hint === 'string' ? collection.indexes.get(hint) : undefined;
  if (!index)
    throw new MongoError('Location51173', 'When using min()/max() a hint of which index to use must be provided');
  return index.spec.key;
}

/** Compares the document's key with a bound field by field, honouring each field's direction. */
function compareKey(doc: Doc, pattern: Doc, bound: Doc): number {
  for (const [field, direction] of Object.entries(pattern)) {
    const value = pathValues(doc, field.split('.'))[0] ?? null;
    const cmp = compare(value, bound[field] ?? null) * (Number(direction) < 0 ? -1 : 1);
    if (cmp !== 0) return cmp;
  }
  return 0;
}

/** `find`'s `min` (inclusive) and `max` (exclusive): a check of each document's key in the hinted index. */
export function boundsCheck(collection: Collection, hint: unknown, bounds: IndexBounds): (doc: Doc) => boolean {
  const pattern = hintedPattern(collection, hint);
  for (const bound of [bounds.min, bounds.max]) {
    if (bound && JSON.stringify(Object.keys(bound)) !== JSON.stringify(Object.keys(pattern))) {
      throw new MongoError('BadValue', 'The index chosen is not equal to min/max');
    }
  }
  const { min, max } = bounds;
  return (doc) => (!min || compareKey(doc, pattern, min) >= 0) && (!max || compareKey(doc, pattern, max) < 0);
}

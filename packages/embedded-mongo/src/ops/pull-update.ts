import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { resolve, setValue } from 'mingo/util';
import { isDoc, type Doc } from '../types';
import type { UpdateEntry } from './update-paths';

const TOP_LEVEL_ONLY = new Set(['$and', '$or', '$nor']);

/**
 * A `$pull` condition that is a query on the elements as documents, `{$or: [{name: 'a'}, {name: 'b'}]}`: MongoDB
 * reads a condition that does not start with a field operator ($gt, $in…) that way. mingo wraps any condition
 * with a `$` key as a condition on the element itself, so it never matches these; they are applied here.
 * Paths with a positional `$[…]` stay with mingo.
 */
export function isDocumentPull(entry: UpdateEntry): boolean {
  return (
    entry.op === '$pull' &&
    !entry.path.includes('$') &&
    isDoc(entry.value) &&
    Object.keys(entry.value).some((key) => TOP_LEVEL_ONLY.has(key))
  );
}

/** Removes the document elements of the array at the entry's path that match its condition (in place). */
export function applyDocumentPull(doc: Doc, entry: UpdateEntry, options: Partial<Options>): void {
  const array = resolve(doc, entry.path);
  if (!Array.isArray(array)) return;
  const query = new Query(entry.value as Doc, options);
  const kept = array.filter((element) => !(isDoc(element) && query.test(element)));
  if (kept.length !== array.length) setValue(doc, entry.path, kept);
}

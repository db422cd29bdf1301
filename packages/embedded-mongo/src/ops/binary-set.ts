import { isEqual, resolve, setValue } from 'mingo/util';
import { isDoc, type Doc } from '../types';
import type { UpdateEntry } from './update-paths';

function holdsBinary(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsBinary);
  if ((value as { _bsontype?: unknown } | null)?._bsontype === 'Binary') return true;
  return isDoc(value) && Object.values(value).some(holdsBinary);
}

/**
 * mingo compares BinData by its bytes alone, so its `$set` of the same bytes with another subtype (or of an
 * object holding such a value) is taken for a no-op and skipped. MongoDB compares the subtype too: the value
 * found equal is replaced by the one set.
 */
export function keepBinarySubtypes(doc: Doc, entries: UpdateEntry[]): void {
  for (const { op, path, value } of entries) {
    if (op !== '$set' || path.includes('$') || !holdsBinary(value)) continue;
    const current = resolve(doc, path);
    if (current !== value && isEqual(current, value)) setValue(doc, path, value);
  }
}

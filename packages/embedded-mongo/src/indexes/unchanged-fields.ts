import type { Doc } from '../types';

/** The distinct top-level fields that key paths start at (`a.b` starts at `a`), worked out once per index. */
export function topLevelFields(paths: string[]): string[] {
  return [...new Set(paths.map((path) => path.split('.', 1)[0]))];
}

/**
 * Whether every top-level field of `topFields` (`topLevelFields` of the key paths) holds the same value in both
 * documents, so that the index keys of the two are certainly the same and a replace need not extract and compare
 * them (an entry of the storefront index holds hundreds of search keys, and most of its writes change only stock and
 * prices). A `false` only means "not shown equal": the caller then compares the keys themselves.
 */
export function keyFieldsUnchanged(current: Doc, next: Doc, topFields: string[]): boolean {
  return topFields.every((top) => top in current === top in next && sameValue(current[top], next[top]));
}

/** Strict structural equality of stored values: same types, same order of fields; BSON values by their `equals`. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  const prototype = Object.getPrototypeOf(a) as object | null;
  if (prototype !== Object.getPrototypeOf(b)) return false;
  if (prototype !== Object.prototype && prototype !== null) return sameBsonValue(a, b);
  return samePlainObject(a as Doc, b as Doc);
}

function sameBsonValue(a: object, b: object): boolean {
  const equals = (a as { equals?: (other: unknown) => boolean }).equals;
  return '_bsontype' in a && typeof equals === 'function' && equals.call(a, b) === true;
}

function samePlainObject(a: Doc, b: Doc): boolean {
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  return keys.length === otherKeys.length && keys.every((key, i) => key === otherKeys[i] && sameValue(a[key], b[key]));
}

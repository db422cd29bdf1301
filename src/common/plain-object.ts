/**
 * An object literal (or `Object.create(null)`): not an array, not null, not a class instance such as a Date,
 * an ObjectId or a Buffer. What JSON parsing makes of `{...}`.
 */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Any object but null and arrays, class instances included. */
export function isNonArrayObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys refused in client input: merged into an object they would reach its prototype. */
export const HOSTILE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

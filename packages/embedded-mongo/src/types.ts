/** A BSON document as the server handles it after deserialization. */
export type Doc = Record<string, unknown>;

export function isDoc(value: unknown): value is Doc {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

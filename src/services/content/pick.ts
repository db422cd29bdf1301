/**
 * The listed fields of a DTO that are set. DTOs keep unknown keys of the client's map, so stored fields are always
 * picked by name: a client must never set `site`, `lang` or `_id` through a map.
 */
export function pickDefined<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

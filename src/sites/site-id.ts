const SITE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A well-formed site id: letters, digits, `_` and `-`, so it is always one safe path and topic segment. */
export function isSiteId(value: string): boolean {
  return SITE_ID.test(value);
}

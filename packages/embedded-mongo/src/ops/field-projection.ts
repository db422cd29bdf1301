import type { Doc } from '../types';

/** The top-level fields an inclusion projection keeps, and whether it keeps `_id`. */
export interface FieldInclusion {
  fields: string[];
  /** `fields` as a set, made once per projection rather than per document picked. */
  wanted: ReadonlySet<string>;
  withId: boolean;
}

const isFlag = (value: unknown): value is number | boolean => typeof value === 'number' || typeof value === 'boolean';

/**
 * The projection as a plain pick of top-level fields, when that is all it is: every key a field name (no dot, no
 * `$`) included with a number or boolean, `_id` included or not. Anything else (dotted paths, operators such as
 * `$elemMatch` or `$slice`, expressions, exclusions) is `null` and goes through mingo's projection.
 */
export function fieldInclusion(projection: Doc): FieldInclusion | null {
  const fields: string[] = [];
  let withId = true;
  for (const [path, value] of Object.entries(projection)) {
    if (!isFlag(value)) return null;
    if (path === '_id') withId = Boolean(value);
    else if (!value || path.includes('.') || path.startsWith('$')) return null;
    else fields.push(path);
  }
  return fields.length > 0 ? { fields, wanted: new Set(fields), withId } : null;
}

/**
 * The document with only the included fields, `_id` first, the others in the document's order (as MongoDB returns
 * an inclusion). Values are shared with the stored document, as mingo's projection shares them. Profiled: mingo's
 * projection (resolving each path through its graph walker, then dropping missing fields) was the largest part of
 * the worker's CPU for a page of 20 listing entries; this is one pass over the document's keys.
 */
export function pickFields(doc: Doc, { wanted, withId }: FieldInclusion): Doc {
  const picked: Doc = {};
  if (withId && '_id' in doc) picked._id = doc._id;
  for (const key of Object.keys(doc)) if (key !== '_id' && wanted.has(key)) picked[key] = doc[key];
  return picked;
}

/**
 * The top-level fields a plain exclusion projection removes (`{a: 0, _id: false}`): every key a field name (no dot,
 * no `$`) set to 0 or false. Anything else is `null`.
 */
export function fieldExclusion(projection: Doc): ReadonlySet<string> | null {
  const entries = Object.entries(projection);
  if (entries.length === 0) return null;
  const plain = entries.every(
    ([path, value]) => (value === 0 || value === false) && !path.includes('.') && !path.startsWith('$'),
  );
  return plain ? new Set(entries.map(([path]) => path)) : null;
}

/** The document without the `excluded` fields, `_id` first, the others in the document's order; values shared. */
export function omitFields(doc: Doc, excluded: ReadonlySet<string>): Doc {
  const kept: Doc = {};
  if ('_id' in doc && !excluded.has('_id')) kept._id = doc._id;
  for (const key of Object.keys(doc)) if (key !== '_id' && !excluded.has(key)) kept[key] = doc[key];
  return kept;
}

import { Query } from 'mingo/query';
import { copyNumberTypes } from '../bson/number-types';
import { MongoError } from '../errors';
import { effectiveFilter, filterOptions, type QueryEnv } from '../query/mingo-options';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import { GeoIndex, type Metric } from './geo-index';
import { EARTH_RADIUS_METERS } from './geometry';
import { NEAR_OPERATORS, nearPoint } from './near-query';

function geoIndexFor(collection: Collection | undefined, key: unknown): GeoIndex {
  const indexes = [...(collection?.searchIndexes.values() ?? [])].filter(
    (index): index is GeoIndex => index instanceof GeoIndex,
  );
  if (key !== undefined) {
    if (typeof key !== 'string' || key === '')
      throw new MongoError('BadValue', "$geoNear parameter 'key' must be a non-empty string");
    const keyed = indexes.find((index) => index.field === key);
    if (!keyed) throw new MongoError('IndexNotFound', `no geo index on key '${key}' for $geoNear`);
    return keyed;
  }
  if (indexes.length === 0)
    throw new MongoError('IndexNotFound', '$geoNear requires a 2d or 2dsphere index, but none were found');
  // MongoDB looks for a 2d index first, then a 2dsphere one; more than one of the kind is ambiguous.
  for (const kind of ['2d', '2dsphere']) {
    const ofKind = indexes.filter((index) => index.kind === kind);
    if (ofKind.length > 1)
      throw new MongoError(
        'IndexNotFound',
        `There is more than one ${kind} index on ${collection?.ns}; unsure which to use for $geoNear`,
      );
    if (ofKind.length === 1) return ofKind[0];
  }
  throw new MongoError('IndexNotFound', '$geoNear requires a 2d or 2dsphere index, but none were found');
}

function distanceOption(spec: Doc, name: string): number | undefined {
  const value = spec[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || value < 0) throw new MongoError('BadValue', `${name} must be a non-negative number`);
  return value;
}

/** Sets a dotted path on a copy, copying the objects along the path (stored documents stay unchanged). */
function setPath(doc: Doc, path: string, value: unknown): void {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) {
    doc[head] = value;
    return;
  }
  const child = isDoc(doc[head]) ? { ...doc[head] } : {};
  doc[head] = child;
  setPath(child, rest.join('.'), value);
}

function queryFilter(spec: Doc, env: QueryEnv): (doc: Doc) => boolean {
  const filter = spec.query ?? {};
  if (!isDoc(filter)) throw new MongoError('BadValue', '$geoNear query must be an object');
  if (Object.values(filter).some((condition) => isDoc(condition) && NEAR_OPERATORS.some((op) => op in condition))) {
    throw new MongoError('BadValue', '$geoNear, $near, and $nearSphere are not allowed in this context');
  }
  const query = new Query(effectiveFilter(filter, env), filterOptions(env, filter));
  return (doc) => query.test(doc);
}

/**
 * The `$geoNear` stage: documents nearest first with their distance in `distanceField` (meters for a
 * GeoJSON point, radians for a legacy pair with `spherical`, flat units otherwise) through the geo index.
 */
export function geoNearStage(collection: Collection | undefined, spec: unknown, env: QueryEnv): Doc[] {
  if (!isDoc(spec)) throw new MongoError('BadValue', '$geoNear argument must be an object');
  if (spec.near === undefined) throw new MongoError('BadValue', "$geoNear requires a 'near' option as an Array");
  if (typeof spec.distanceField !== 'string')
    throw new MongoError('BadValue', "$geoNear requires a 'distanceField' option as a String");
  const { point, geoJson } = nearPoint(spec.near);
  const index = geoIndexFor(collection, spec.key);
  if (geoJson && index.kind === '2d')
    throw new MongoError('NoQueryExecutionPlans', 'unable to find index for $geoNear query');
  const metric: Metric = geoJson || spec.spherical === true || index.kind === '2dsphere' ? 'sphere' : 'flat';
  const scale = geoJson ? EARTH_RADIUS_METERS : 1;
  const multiplier = typeof spec.distanceMultiplier === 'number' ? spec.distanceMultiplier : 1;
  const matches = queryFilter(spec, env);
  const min = (distanceOption(spec, 'minDistance') ?? 0) / scale;
  const max = (distanceOption(spec, 'maxDistance') ?? Infinity) / scale;
  const results: Doc[] = [];
  for (const hit of index.near(point, metric, min, max)) {
    const doc = collection?.get(hit.id);
    if (!doc || !matches(doc)) continue;
    const copy: Doc = { ...doc };
    copyNumberTypes(doc, copy);
    setPath(copy, spec.distanceField, hit.distance * scale * multiplier);
    if (typeof spec.includeLocs === 'string') setPath(copy, spec.includeLocs, hit.value);
    results.push(copy);
  }
  return results;
}

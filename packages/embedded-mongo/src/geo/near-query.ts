import type { Position } from 'geojson';
import { MongoError } from '../errors';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import { GeoIndex, type Metric } from './geo-index';
import { EARTH_RADIUS_METERS, legacyPoint } from './geometry';

export const NEAR_OPERATORS = ['$near', '$nearSphere'];

/** A planned near search: the index, the center, how distances are measured and reported. */
export interface NearSearch {
  index: GeoIndex;
  center: Position;
  metric: Metric;
  /** Search bounds in the index's measure (radians on the sphere). */
  min: number;
  max: number;
  /** Factor from the measure to the reported unit (earth radius for meters, else 1). */
  scale: number;
}

/** The field and condition of a near query in the filter (top level or in a top-level `$and`), if any. */
export function findNearCondition(filter: Doc): { field: string; condition: Doc } | undefined {
  const clauses = [filter, ...(Array.isArray(filter.$and) ? filter.$and.filter(isDoc) : [])];
  for (const clause of clauses) {
    for (const [field, condition] of Object.entries(clause)) {
      if (isDoc(condition) && NEAR_OPERATORS.some((op) => op in condition)) return { field, condition };
    }
  }
  return undefined;
}

/** The filter without the near condition (and its `$maxDistance`/`$minDistance` siblings). */
export function withoutNear(filter: Doc, field: string): Doc {
  const { [field]: _near, ...rest } = filter;
  if (Array.isArray(filter.$and))
    rest.$and = filter.$and.filter((clause) => !(isDoc(clause) && findNearCondition(clause)?.field === field));
  if (Array.isArray(rest.$and) && rest.$and.length === 0) delete rest.$and;
  return rest;
}

function distanceOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value)) throw new MongoError('BadValue', `${name} must be a number`);
  if (value < 0) throw new MongoError('BadValue', `${name} must be non-negative`);
  return value;
}

/** The point of `$near`/`$geoNear`: a GeoJSON Point (`$geometry` or bare) or a legacy pair. */
export function nearPoint(value: unknown): { point: Position; geoJson: boolean } {
  const geometry = isDoc(value) && isDoc(value.$geometry) ? value.$geometry : value;
  if (isDoc(geometry) && geometry.type === 'Point') {
    const point = legacyPoint(geometry.coordinates);
    if (point) return { point, geoJson: true };
  }
  const point = legacyPoint(geometry);
  if (!point) throw new MongoError('BadValue', `invalid point in geo near query: ${JSON.stringify(value)}`);
  return { point, geoJson: false };
}

function noIndex(ns: string): MongoError {
  return new MongoError(
    'NoQueryExecutionPlans',
    `error processing query: ns=${ns} planner returned error :: caused by :: unable to find index for $geoNear query`,
  );
}

/**
 * A GeoJSON point needs a 2dsphere index and measures meters; a legacy pair with `$near` needs a 2d index
 * (flat units); `$nearSphere` with a legacy pair uses either index and measures radians.
 */
export function planNear(collection: Collection | undefined, ns: string, field: string, condition: Doc): NearSearch {
  const operator = '$nearSphere' in condition ? '$nearSphere' : '$near';
  const operand = condition[operator];
  const { point, geoJson } = nearPoint(operand);
  const options = isDoc(operand) && isDoc(operand.$geometry) ? operand : condition;
  const indexes = collection
    ? [...collection.searchIndexes.values()].filter((index): index is GeoIndex => index instanceof GeoIndex)
    : [];
  const onField = indexes.filter((index) => index.field === field);
  const kinds = geoJson ? ['2dsphere'] : operator === '$near' ? ['2d'] : ['2dsphere', '2d'];
  const index = kinds.map((kind) => onField.find((candidate) => candidate.kind === kind)).find(Boolean);
  if (!index) throw noIndex(ns);
  const metric: Metric = geoJson || operator === '$nearSphere' ? 'sphere' : 'flat';
  const scale = geoJson ? EARTH_RADIUS_METERS : 1;
  const min = distanceOption(options.$minDistance, '$minDistance') ?? 0;
  const max = distanceOption(options.$maxDistance, '$maxDistance') ?? Infinity;
  return { index, center: point, metric, min: min / scale, max: max / scale, scale };
}

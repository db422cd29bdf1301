import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { Geometry, Polygon, Position } from 'geojson';
import type { Options } from 'mingo/types';
import { MongoError } from '../errors';
import { isDoc, type Doc } from '../types';
import {
  bboxOf,
  flatBox,
  flatDistance,
  geoJson,
  geometriesIntersect,
  geometryWithin,
  GeometryError,
  legacyPoint,
  locationsAt,
  parseShape,
  positionsOf,
  sphereBox,
  sphereDistance,
  type Box,
  type Shape,
} from './geometry';

/**
 * A query region: whether it holds (for `$geoIntersects`: meets) a stored location, and a box around it,
 * so a geo index can narrow candidates to locations whose boxes meet it.
 */
export interface Region {
  matches(shape: Shape): boolean;
  box: Box;
}

function badValue(message: string): MongoError {
  return new MongoError('BadValue', message);
}

function pointOf(value: unknown, what: string): Position {
  const point = legacyPoint(value);
  if (!point) throw badValue(`${what} must be a point`);
  return point;
}

function radiusOf(value: unknown, what: string): number {
  if (typeof value !== 'number' || !(value >= 0)) throw badValue(`${what} radius must be a non-negative number`);
  return value;
}

/** Flat regions ($box, $polygon, $center) hold points only, as MongoDB's flat containment. */
const flatPoint = (shape: Shape): Position | undefined =>
  shape.geometry.type === 'Point' ? shape.geometry.coordinates : undefined;

function boxRegion(operand: unknown): Region {
  if (!Array.isArray(operand) || operand.length !== 2) throw badValue('$box must be an array of two points');
  const [[x1, y1], [x2, y2]] = operand.map((corner) => pointOf(corner, '$box corner'));
  const box: Box = [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
  const matches = (shape: Shape): boolean => {
    const point = flatPoint(shape);
    return !!point && point[0] >= box[0] && point[0] <= box[2] && point[1] >= box[1] && point[1] <= box[3];
  };
  return { matches, box };
}

function polygonRegion(operand: unknown): Region {
  if (!Array.isArray(operand) || operand.length < 3) throw badValue('Polygon must have at least 3 points');
  const ring = operand.map((vertex) => pointOf(vertex, '$polygon vertex'));
  const polygon: Polygon = { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
  const matches = (shape: Shape): boolean => {
    const point = flatPoint(shape);
    return !!point && booleanPointInPolygon(point, polygon);
  };
  return { matches, box: bboxOf(polygon) };
}

function circleOf(operand: unknown, what: string): [Position, number] {
  if (!Array.isArray(operand) || operand.length !== 2)
    throw badValue(`${what} must be an array of a center and a radius`);
  return [pointOf(operand[0], `${what} center`), radiusOf(operand[1], what)];
}

function centerRegion(operand: unknown): Region {
  const [center, radius] = circleOf(operand, '$center');
  const matches = (shape: Shape): boolean => {
    const point = flatPoint(shape);
    return !!point && flatDistance(center, point) <= radius;
  };
  return { matches, box: flatBox(center, radius) };
}

/** A spherical cap holds a geometry when every vertex lies within it (exact for points). */
function centerSphereRegion(operand: unknown): Region {
  const [center, radius] = circleOf(operand, '$centerSphere');
  const matches = (shape: Shape): boolean =>
    positionsOf(shape.geometry).every((position) => sphereDistance(center, position) <= radius);
  return { matches, box: sphereBox(center, radius) };
}

function queryGeometry(operand: unknown): Geometry {
  if (!isDoc(operand)) throw badValue('$geometry must be a GeoJSON object');
  try {
    return geoJson(operand, true);
  } catch (error) {
    if (error instanceof GeometryError) throw badValue(`Invalid GeoJSON in $geometry: ${error.message}`);
    throw error;
  }
}

function withinRegion(operand: unknown): Region {
  if (!isDoc(operand)) throw badValue('$geoWithin expects an object');
  const [shapeName, value] = Object.entries(operand)[0] ?? [];
  switch (shapeName) {
    case '$geometry': {
      const region = queryGeometry(value);
      if (region.type !== 'Polygon' && region.type !== 'MultiPolygon') {
        throw badValue(`$geoWithin not supported with provided geometry: ${JSON.stringify(operand)}`);
      }
      return { matches: (shape) => geometryWithin(shape.geometry, region), box: bboxOf(region) };
    }
    case '$box':
      return boxRegion(value);
    case '$polygon':
      return polygonRegion(value);
    case '$center':
      return centerRegion(value);
    case '$centerSphere':
      return centerSphereRegion(value);
  }
  throw badValue(`unknown geo specifier: ${String(shapeName)}`);
}

function intersectsRegion(operand: unknown): Region {
  if (!isDoc(operand) || !('$geometry' in operand)) throw badValue('$geoIntersects expects a $geometry');
  const region = queryGeometry(operand.$geometry);
  return { matches: (shape) => geometriesIntersect(shape.geometry, region), box: bboxOf(region) };
}

const REGIONS: Record<string, (operand: unknown) => Region> = {
  $geoWithin: withinRegion,
  $within: withinRegion,
  $geoIntersects: intersectsRegion,
};

/** The region of a `$geoWithin`/`$within`/`$geoIntersects` condition on a field, if the condition is one. */
export function regionOf(condition: unknown): Region | undefined {
  if (!isDoc(condition)) return undefined;
  const operator = Object.keys(REGIONS).find((name) => name in condition);
  return operator ? REGIONS[operator](condition[operator]) : undefined;
}

/** Values that are no geometry never match, as in MongoDB. */
function shapeOrUndefined(value: unknown): Shape | undefined {
  try {
    return parseShape(value, false);
  } catch {
    return undefined;
  }
}

function regionOperator(build: (operand: unknown) => Region) {
  return (selector: string, operand: unknown, _options: Options): ((obj: Doc) => boolean) => {
    const region = build(operand);
    const path = selector.split('.');
    return (obj) =>
      locationsAt(obj, path).some((value) => {
        const shape = shapeOrUndefined(value);
        return !!shape && region.matches(shape);
      });
  };
}

/** mingo query operators: `$geoWithin` (and its legacy name `$within`) and `$geoIntersects`. */
export const geoQueryOperators = Object.fromEntries(
  Object.entries(REGIONS).map(([name, build]) => [name, regionOperator(build)]),
);

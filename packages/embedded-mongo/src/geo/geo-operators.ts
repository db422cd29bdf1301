import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { Geometry, Polygon, Position } from 'geojson';
import type { Options } from 'mingo/types';
import { MongoError } from '../errors';
import { isDoc, type Doc } from '../types';
import {
  flatDistance,
  geoJson,
  geometriesIntersect,
  geometryWithin,
  GeometryError,
  legacyPoint,
  locationsAt,
  parseShape,
  positionsOf,
  sphereDistance,
  type Shape,
} from './geometry';

/** A query region: does it contain (or, for `$geoIntersects`, meet) a stored location? */
type Region = (shape: Shape) => boolean;

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
  return (shape) => {
    const point = flatPoint(shape);
    return (
      !!point &&
      point[0] >= Math.min(x1, x2) &&
      point[0] <= Math.max(x1, x2) &&
      point[1] >= Math.min(y1, y2) &&
      point[1] <= Math.max(y1, y2)
    );
  };
}

function polygonRegion(operand: unknown): Region {
  if (!Array.isArray(operand) || operand.length < 3) throw badValue('Polygon must have at least 3 points');
  const ring = operand.map((vertex) => pointOf(vertex, '$polygon vertex'));
  const polygon: Polygon = { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
  return (shape) => {
    const point = flatPoint(shape);
    return !!point && booleanPointInPolygon(point, polygon);
  };
}

function circleOf(operand: unknown, what: string): [Position, number] {
  if (!Array.isArray(operand) || operand.length !== 2)
    throw badValue(`${what} must be an array of a center and a radius`);
  return [pointOf(operand[0], `${what} center`), radiusOf(operand[1], what)];
}

function centerRegion(operand: unknown): Region {
  const [center, radius] = circleOf(operand, '$center');
  return (shape) => {
    const point = flatPoint(shape);
    return !!point && flatDistance(center, point) <= radius;
  };
}

/** A spherical cap holds a geometry when every vertex lies within it (exact for points). */
function centerSphereRegion(operand: unknown): Region {
  const [center, radius] = circleOf(operand, '$centerSphere');
  return (shape) => positionsOf(shape.geometry).every((position) => sphereDistance(center, position) <= radius);
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
      return (shape) => geometryWithin(shape.geometry, region);
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
  return (shape) => geometriesIntersect(shape.geometry, region);
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
        return !!shape && region(shape);
      });
  };
}

/** mingo query operators: `$geoWithin` (and its legacy name `$within`) and `$geoIntersects`. */
export const geoQueryOperators = {
  $geoWithin: regionOperator(withinRegion),
  $within: regionOperator(withinRegion),
  $geoIntersects: regionOperator(intersectsRegion),
};

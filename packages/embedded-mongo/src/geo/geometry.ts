import { booleanIntersects } from '@turf/boolean-intersects';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { booleanWithin } from '@turf/boolean-within';
import { distance } from '@turf/distance';
import { pointToLineDistance } from '@turf/point-to-line-distance';
import type { Geometry, LineString, Point, Polygon, Position } from 'geojson';
import { isDoc } from '../types';

/** MongoDB's earth radius for spherical distances in meters (kRadiusOfEarthInMeters). */
export const EARTH_RADIUS_METERS = 6378.1 * 1000;

/** Bounding box: [minX, minY, maxX, maxY]. */
export type Box = [number, number, number, number];

/** A stored or queried location: GeoJSON (a legacy pair becomes a Point) and whether it was a legacy pair. */
export interface Shape {
  geometry: Geometry;
  legacy: boolean;
  bbox: Box;
}

/** Invalid geometry; the message is MongoDB's reason. */
export class GeometryError extends Error {}

const isNumber = (value: unknown): value is number => typeof value === 'number' && !Number.isNaN(value);

/** A legacy coordinate pair: `[x, y]` or an object whose first two values are numbers (`{lng, lat}`). */
export function legacyPoint(value: unknown): Position | undefined {
  const values = Array.isArray(value) ? value : isDoc(value) && !('type' in value) ? Object.values(value) : undefined;
  if (!values || values.length < 2) return undefined;
  return isNumber(values[0]) && isNumber(values[1]) ? [values[0], values[1]] : undefined;
}

function checkPosition(position: unknown, sphere: boolean): Position {
  if (!Array.isArray(position) || position.length < 2 || !position.every(isNumber)) {
    throw new GeometryError('Point must only contain numeric elements');
  }
  const [lng, lat] = position;
  if (sphere && (lng < -180 || lng > 180 || lat < -90 || lat > 90)) {
    throw new GeometryError(`longitude/latitude is out of bounds, lng: ${lng} lat: ${lat}`);
  }
  return [lng, lat];
}

function checkLine(positions: unknown, sphere: boolean): Position[] {
  if (!Array.isArray(positions) || positions.length < 2)
    throw new GeometryError('GeoJSON LineString must have at least 2 vertices');
  return positions.map((position) => checkPosition(position, sphere));
}

function checkRing(positions: unknown, sphere: boolean): Position[] {
  const ring = Array.isArray(positions) ? positions.map((position) => checkPosition(position, sphere)) : [];
  if (new Set(ring.map((position) => position.join(','))).size < 3)
    throw new GeometryError('Loop must have at least 3 different vertices');
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (first[0] !== last[0] || first[1] !== last[1])
    throw new GeometryError('Loop is not closed, first vertex does not equal last vertex');
  return ring;
}

function checkPolygon(rings: unknown, sphere: boolean): Position[][] {
  if (!Array.isArray(rings) || rings.length === 0) throw new GeometryError('Polygon coordinates must be an array');
  return rings.map((ring) => checkRing(ring, sphere));
}

function checkArray<T>(value: unknown, check: (item: unknown) => T): T[] {
  if (!Array.isArray(value)) throw new GeometryError('coordinates must be an array');
  return value.map(check);
}

/** Validates a GeoJSON geometry object (coordinates within the sphere's bounds when `sphere`). */
export function geoJson(value: Record<string, unknown>, sphere: boolean): Geometry {
  const coordinates = value.coordinates;
  switch (value.type) {
    case 'Point':
      return { type: 'Point', coordinates: checkPosition(coordinates, sphere) };
    case 'LineString':
      return { type: 'LineString', coordinates: checkLine(coordinates, sphere) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: checkPolygon(coordinates, sphere) };
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: checkArray(coordinates, (item) => checkPosition(item, sphere)) };
    case 'MultiLineString':
      return { type: 'MultiLineString', coordinates: checkArray(coordinates, (item) => checkLine(item, sphere)) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: checkArray(coordinates, (item) => checkPolygon(item, sphere)) };
    case 'GeometryCollection':
      return {
        type: 'GeometryCollection',
        geometries: checkArray(value.geometries, (item) => {
          if (!isDoc(item)) throw new GeometryError('GeometryCollection geometries must be objects');
          return geoJson(item, sphere);
        }),
      };
  }
  throw new GeometryError(`unknown GeoJSON type: ${JSON.stringify(value.type ?? null)}`);
}

export function positionsOf(geometry: Geometry): Position[] {
  switch (geometry.type) {
    case 'Point':
      return [geometry.coordinates];
    case 'LineString':
    case 'MultiPoint':
      return geometry.coordinates;
    case 'Polygon':
    case 'MultiLineString':
      return geometry.coordinates.flat();
    case 'MultiPolygon':
      return geometry.coordinates.flat(2);
    case 'GeometryCollection':
      return geometry.geometries.flatMap(positionsOf);
  }
}

export function bboxOf(geometry: Geometry): Box {
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of positionsOf(geometry)) {
    box[0] = Math.min(box[0], x);
    box[1] = Math.min(box[1], y);
    box[2] = Math.max(box[2], x);
    box[3] = Math.max(box[3], y);
  }
  return box;
}

/** A location value: a legacy pair or, when `allowGeoJson`, a GeoJSON geometry; throws GeometryError. */
export function parseShape(value: unknown, sphere: boolean, allowGeoJson = true): Shape {
  const pair = legacyPoint(value);
  if (pair) {
    const point: Point = { type: 'Point', coordinates: sphere ? checkPosition(pair, true) : pair };
    return { geometry: point, legacy: true, bbox: [pair[0], pair[1], pair[0], pair[1]] };
  }
  if (allowGeoJson && isDoc(value) && 'type' in value) {
    const geometry = geoJson(value, sphere);
    return { geometry, legacy: false, bbox: bboxOf(geometry) };
  }
  throw new GeometryError(
    allowGeoJson
      ? 'Point must be an array or object, instead got type ' + typeName(value)
      : "geo values must be 'legacy coordinate pairs' for 2d indexes",
  );
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** Locations at a dotted path: arrays along the path are descended, an array of locations gives each. */
export function locationsAt(doc: unknown, path: string[]): unknown[] {
  if (path.length === 0) return Array.isArray(doc) && !legacyPoint(doc) ? doc : [doc];
  if (Array.isArray(doc)) return doc.flatMap((element) => locationsAt(element, path));
  return isDoc(doc) ? locationsAt(doc[path[0]], path.slice(1)) : [];
}

/** The box around a flat circle. */
export function flatBox([x, y]: Position, radius: number): Box {
  return [x - radius, y - radius, x + radius, y + radius];
}

const WORLD: Box = [-180, -90, 180, 90];

/** A longitude/latitude box holding the spherical cap of `radius` radians around the center. */
export function sphereBox([lng, lat]: Position, radius: number): Box {
  if (radius >= Math.PI / 2) return WORLD;
  const degrees = (radius * 180) / Math.PI;
  const minY = lat - degrees;
  const maxY = lat + degrees;
  if (minY <= -90 || maxY >= 90) return [-180, Math.max(minY, -90), 180, Math.min(maxY, 90)];
  const spread = (Math.asin(Math.min(1, Math.sin(radius) / Math.cos((lat * Math.PI) / 180))) * 180) / Math.PI;
  if (lng - spread < -180 || lng + spread > 180) return [-180, minY, 180, maxY];
  return [lng - spread, minY, lng + spread, maxY];
}

/** Great-circle distance in radians between two [lng, lat] positions. */
export function sphereDistance(a: Position, b: Position): number {
  return distance(a, b, { units: 'radians' });
}

export function flatDistance(a: Position, b: Position): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

function lineDistance(point: Position, line: Position[]): number {
  const geometry: LineString = { type: 'LineString', coordinates: line };
  return pointToLineDistance(point, geometry, { units: 'radians' });
}

function polygonDistance(point: Position, rings: Position[][]): number {
  const polygon: Polygon = { type: 'Polygon', coordinates: rings };
  if (booleanPointInPolygon(point, polygon)) return 0;
  return Math.min(...rings.map((ring) => lineDistance(point, ring)));
}

/** Spherical distance in radians from a point to the nearest part of a geometry (0 inside a polygon). */
export function distanceToGeometry(point: Position, geometry: Geometry): number {
  switch (geometry.type) {
    case 'Point':
      return sphereDistance(point, geometry.coordinates);
    case 'MultiPoint':
      return Math.min(...geometry.coordinates.map((position) => sphereDistance(point, position)));
    case 'LineString':
      return lineDistance(point, geometry.coordinates);
    case 'MultiLineString':
      return Math.min(...geometry.coordinates.map((line) => lineDistance(point, line)));
    case 'Polygon':
      return polygonDistance(point, geometry.coordinates);
    case 'MultiPolygon':
      return Math.min(...geometry.coordinates.map((rings) => polygonDistance(point, rings)));
    case 'GeometryCollection':
      return Math.min(...geometry.geometries.map((part) => distanceToGeometry(point, part)));
  }
}

/** Whether the geometry lies within the (Multi)Polygon region. */
export function geometryWithin(geometry: Geometry, region: Geometry): boolean {
  if (geometry.type === 'GeometryCollection') return geometry.geometries.every((part) => geometryWithin(part, region));
  if (geometry.type === 'Point') return booleanPointInPolygon(geometry.coordinates, region as Polygon);
  if (geometry.type === 'MultiPoint')
    return geometry.coordinates.every((position) => booleanPointInPolygon(position, region as Polygon));
  if (region.type === 'MultiPolygon') {
    const parts = region.coordinates.map((rings): Polygon => ({ type: 'Polygon', coordinates: rings }));
    return parts.some((part) => booleanWithin(geometry, part));
  }
  return booleanWithin(geometry, region);
}

export function geometriesIntersect(a: Geometry, b: Geometry): boolean {
  if (a.type === 'GeometryCollection') return a.geometries.some((part) => geometriesIntersect(part, b));
  if (b.type === 'GeometryCollection') return b.geometries.some((part) => geometriesIntersect(a, part));
  return booleanIntersects(a, b);
}

import RBush from 'rbush';
import { MongoError } from '../errors';
import type { IndexSpec } from '../indexes/index-spec';
import { partialFilter } from '../indexes/partial-filter';
import type { Position } from 'geojson';
import type { Doc } from '../types';
import {
  distanceToGeometry,
  flatBox,
  flatDistance,
  GeometryError,
  locationsAt,
  parseShape,
  sphereBox,
  type Box,
  type Shape,
} from './geometry';

export type GeoKind = '2dsphere' | '2d';

interface Entry {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  id: string;
  shape: Shape;
  /** The stored location value (for `$geoNear`'s `includeLocs`). */
  value: unknown;
}

/** One document found by a near search: its nearest location and the distance to it. */
export interface NearHit {
  id: string;
  distance: number;
  value: unknown;
}

/** How distances are measured: on the sphere in radians, or flat in coordinate units. */
export type Metric = 'sphere' | 'flat';

export const isGeoKind = (value: unknown): value is GeoKind => value === '2dsphere' || value === '2d';

/** The locations a document holds in the indexed field (missing and null values are not indexed). */
function locationValues(doc: Doc, path: string[]): unknown[] {
  return locationsAt(doc, path).filter((value) => value !== undefined && value !== null);
}

function cannotCreate(message: string): MongoError {
  return new MongoError('CannotCreateIndex', message);
}

/**
 * A `2dsphere` or `2d` index: every location of the indexed field in an R-tree of bounding boxes
 * (rbush), so near and region searches look only at nearby entries. Documents are validated before any
 * write (MongoDB's "Can't extract geo keys"); rebuilt from the documents when the store opens.
 */
export class GeoIndex {
  readonly fields: string[];
  readonly field: string;
  readonly kind: GeoKind;
  private readonly path: string[];
  private readonly tree = new RBush<Entry>();
  private readonly byId = new Map<string, Entry[]>();
  private readonly min: number;
  private readonly max: number;
  private readonly holds: (doc: Doc) => boolean;

  constructor(readonly spec: IndexSpec) {
    this.holds = partialFilter(spec);
    this.fields = Object.keys(spec.key);
    const geoFields = this.fields.filter((field) => isGeoKind(spec.key[field]));
    this.field = geoFields[0];
    this.kind = spec.key[this.field] as GeoKind;
    this.path = this.field.split('.');
    this.min = Number(spec.min ?? -180);
    this.max = Number(spec.max ?? 180);
    if (this.kind === '2d') this.check2d(geoFields);
  }

  private check2d(geoFields: string[]): void {
    if (this.fields[0] !== this.field) throw cannotCreate('2d has to be first in index');
    if (geoFields.length > 1) throw cannotCreate('2d can only have one 2d field');
    const bits = Number(this.spec.bits ?? 26);
    if (!(bits >= 1 && bits <= 32)) throw cannotCreate('bits in geo index must be between 1 and 32');
    if (!(this.min < this.max)) throw cannotCreate('region for hash must be valid and have positive area');
  }

  get name(): string {
    return this.spec.name;
  }

  covers(doc: Doc): boolean {
    return this.locationsOf(doc).length > 0;
  }

  /** The document's locations in the indexed field (none outside a partial index's filter). */
  private locationsOf(doc: Doc): unknown[] {
    return this.holds(doc) ? locationValues(doc, this.path) : [];
  }

  /** Throws MongoDB's error for a location this index cannot hold (called before any index changes). */
  checkUnique(doc: Doc): void {
    this.entriesOf(doc, '');
  }

  private entriesOf(doc: Doc, id: string): Entry[] {
    return this.locationsOf(doc).map((value) => {
      const shape = this.shapeOf(doc, value);
      const [minX, minY, maxX, maxY] = shape.bbox;
      return { minX, minY, maxX, maxY, id, shape, value };
    });
  }

  private shapeOf(doc: Doc, value: unknown): Shape {
    try {
      const shape = parseShape(value, this.kind === '2dsphere', this.kind === '2dsphere');
      if (this.kind === '2d') this.checkBounds(doc, shape);
      return shape;
    } catch (error) {
      if (!(error instanceof GeometryError)) throw error;
      if (this.kind === '2d') throw new MongoError('Location13026', error.message);
      throw new MongoError('Location16755', `Can't extract geo keys: ${JSON.stringify(doc)}  ${error.message}`);
    }
  }

  private checkBounds(doc: Doc, shape: Shape): void {
    const [x, y] = shape.bbox;
    if (x < this.min || x >= this.max || y < this.min || y >= this.max) {
      const interval = `[ ${this.min}, ${this.max} )`;
      throw new MongoError(
        'Location13027',
        `point not in interval of ${interval} :: caused by :: ${JSON.stringify(doc)}`,
      );
    }
  }

  build(docs: Iterable<[string, Doc]>): void {
    const entries: Entry[] = [];
    for (const [id, doc] of docs) {
      const own = this.entriesOf(doc, id);
      if (own.length) this.byId.set(id, own);
      entries.push(...own);
    }
    this.tree.load(entries);
  }

  add(doc: Doc, id: string): void {
    const entries = this.entriesOf(doc, id);
    if (entries.length === 0) return;
    this.byId.set(id, entries);
    for (const entry of entries) this.tree.insert(entry);
  }

  /** Bytes the index takes: per location, its bounding box in the R-tree (four doubles) plus 8 bytes of record id. */
  sizeBytes(): number {
    let locations = 0;
    for (const entries of this.byId.values()) locations += entries.length;
    return locations * (4 * 8 + 8);
  }

  remove(_doc: Doc, id: string): void {
    for (const entry of this.byId.get(id) ?? []) this.tree.remove(entry);
    this.byId.delete(id);
  }

  /** Re-indexes a replaced document; a no-op when its locations did not change (the common update). */
  replace(current: Doc, next: Doc, id: string): void {
    const fingerprint = (doc: Doc): string => JSON.stringify(this.locationsOf(doc));
    if (fingerprint(current) === fingerprint(next)) return;
    this.remove(current, id);
    this.add(next, id);
  }

  private search(box: Box): Entry[] {
    return this.tree.search({ minX: box[0], minY: box[1], maxX: box[2], maxY: box[3] });
  }

  /** The box around every entry. */
  private extent(): Box {
    const root = this.tree.toJSON() as { minX: number; minY: number; maxX: number; maxY: number };
    return [root.minX, root.minY, root.maxX, root.maxY];
  }

  /** Ids of documents with a location whose bounding box meets the box. */
  idsIn(box: Box): Set<string> {
    return new Set(this.search(box).map((entry) => entry.id));
  }

  /**
   * Documents in ascending distance from `center` (each once, at its nearest location), between `min` and
   * `max`. Searches rings of growing radius in the R-tree, so a caller that stops early reads few entries.
   */
  *near(center: Position, metric: Metric, min = 0, max = Infinity): Generator<NearHit> {
    const seen = new Set<string>();
    let inner = -1;
    let radius = metric === 'sphere' ? 1e-4 : Math.max((this.max - this.min) / 4096, 1e-9);
    for (;;) {
      const outer = Math.min(radius, max);
      const box = metric === 'sphere' ? sphereBox(center, outer) : flatBox(center, outer);
      // Once the box holds every entry, the hits beyond the ring are all that is left: take them too.
      const everything = covers(box, this.extent());
      const ring = this.nearest(this.search(box), center, metric).filter(
        (hit) => !seen.has(hit.id) && hit.distance > inner && (everything || hit.distance <= outer),
      );
      for (const hit of ring) {
        seen.add(hit.id);
        if (hit.distance >= min && hit.distance <= max) yield hit;
      }
      if (everything || outer >= max || seen.size >= this.byId.size) return;
      inner = outer;
      radius *= 4;
    }
  }

  private nearest(entries: Entry[], center: Position, metric: Metric): NearHit[] {
    const best = new Map<string, NearHit>();
    for (const entry of entries) {
      const distance =
        metric === 'sphere'
          ? distanceToGeometry(center, entry.shape.geometry)
          : flatDistance(center, [entry.minX, entry.minY]);
      const known = best.get(entry.id);
      if (!known || distance < known.distance) best.set(entry.id, { id: entry.id, distance, value: entry.value });
    }
    return [...best.values()].sort((a, b) => a.distance - b.distance);
  }
}

/** Whether box `outer` holds box `inner` (both [minX, minY, maxX, maxY]). */
function covers(outer: Box, inner: Box): boolean {
  return outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];
}

import type { Collection, Db } from 'mongodb';
import { failure, startHarness, type AnyDoc, type Harness } from './helpers';

let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('geo');
});
afterAll(() => harness.stop());

const names = (docs: AnyDoc[]): unknown[] => docs.map((doc) => doc.name);

/** Test oracle: haversine distance in radians between [lng, lat] points. */
function radiansBetween([lng1, lat1]: number[], [lng2, lat2]: number[]): number {
  const rad = (degrees: number): number => (degrees * Math.PI) / 180;
  const a =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}
const EARTH_RADIUS_METERS = 6378100;

/** The `places` collection of MongoDB's `$near` and `$geoNear` reference pages. */
const PLACES: AnyDoc[] = [
  { _id: 1, name: 'Central Park', location: { type: 'Point', coordinates: [-73.97, 40.77] }, category: 'Parks' },
  {
    _id: 2,
    name: 'Sara D. Roosevelt Park',
    location: { type: 'Point', coordinates: [-73.9928, 40.7193] },
    category: 'Parks',
  },
  { _id: 3, name: 'Polo Grounds', location: { type: 'Point', coordinates: [-73.9375, 40.8303] }, category: 'Stadiums' },
];

describe("2dsphere: MongoDB's places example", () => {
  let places: Collection<AnyDoc>;
  const point = (coordinates: number[]) => ({ type: 'Point', coordinates });

  beforeAll(async () => {
    places = db.collection<AnyDoc>('places');
    await places.insertMany(PLACES);
    await places.createIndex({ location: '2dsphere' });
  });

  it('lists the index with its version', async () => {
    expect((await places.listIndexes().toArray())[1]).toEqual({
      v: 2,
      key: { location: '2dsphere' },
      name: 'location_2dsphere',
      '2dsphereIndexVersion': 3,
    });
  });

  it('$near sorts by distance in meters within $minDistance/$maxDistance', async () => {
    const near = { $geometry: point([-73.9667, 40.78]), $minDistance: 1000, $maxDistance: 5000 };
    expect(names(await places.find({ location: { $near: near } }).toArray())).toEqual(['Central Park']);
    const all = await places.find({ location: { $near: { $geometry: point([-73.9667, 40.78]) } } }).toArray();
    expect(names(all)).toEqual(['Central Park', 'Polo Grounds', 'Sara D. Roosevelt Park']);
    const sorted = await places
      .find({ location: { $near: { $geometry: point([-73.9667, 40.78]) } } })
      .sort({ name: -1 })
      .limit(2)
      .toArray();
    expect(names(sorted)).toEqual(['Sara D. Roosevelt Park', 'Polo Grounds']);
    const limited = await places
      .find({ location: { $nearSphere: { $geometry: point([-73.9667, 40.78]) } }, category: 'Parks' })
      .limit(1)
      .toArray();
    expect(names(limited)).toEqual(['Central Park']);
  });

  it('explains $near as GEO_NEAR_2DSPHERE over the geo index', async () => {
    const plan = await places.find({ location: { $near: { $geometry: point([0, 0]) } } }).explain('queryPlanner');
    expect(plan.queryPlanner.winningPlan).toEqual({
      stage: 'GEO_NEAR_2DSPHERE',
      keyPattern: { location: '2dsphere' },
      indexName: 'location_2dsphere',
    });
  });

  it('$geoNear reports distances in meters, includeLocs, query, minDistance and distanceMultiplier', async () => {
    const near = point([-73.99279, 40.719296]);
    const [closest] = await places
      .aggregate([
        {
          $geoNear: {
            near,
            distanceField: 'dist.calculated',
            maxDistance: 2,
            query: { category: 'Parks' },
            includeLocs: 'dist.location',
            spherical: true,
          },
        },
      ])
      .toArray();
    expect(closest.name).toBe('Sara D. Roosevelt Park');
    expect(closest.dist.calculated).toBeCloseTo(
      radiansBetween(near.coordinates, [-73.9928, 40.7193]) * EARTH_RADIUS_METERS,
      6,
    );
    expect(closest.dist.location).toEqual(PLACES[1].location);
    const farther = await places
      .aggregate([{ $geoNear: { near, distanceField: 'd', minDistance: 2, query: { category: 'Parks' } } }])
      .toArray();
    expect(names(farther)).toEqual(['Central Park']);
    const km = await places
      .aggregate([
        { $geoNear: { near, distanceField: 'km', distanceMultiplier: 0.001 } },
        { $project: { _id: 0, name: 1, km: 1 } },
        { $limit: 2 },
      ])
      .toArray();
    expect(km[1].name).toBe('Central Park');
    expect(km[1].km).toBeCloseTo(radiansBetween(near.coordinates, [-73.97, 40.77]) * 6378.1, 6);
  });

  it('$geoWithin ($geometry, $centerSphere, $box, $polygon, $center, legacy $within) and $geoIntersects', async () => {
    const square = {
      type: 'Polygon',
      coordinates: [
        [
          [-74, 40.7],
          [-73.95, 40.7],
          [-73.95, 40.8],
          [-74, 40.8],
          [-74, 40.7],
        ],
      ],
    };
    expect(names(await places.find({ location: { $geoWithin: { $geometry: square } } }).toArray())).toEqual([
      'Central Park',
      'Sara D. Roosevelt Park',
    ]);
    expect(
      names(
        await places.find({ location: { $geoWithin: { $centerSphere: [[-73.97, 40.77], 5 / 6378.1] } } }).toArray(),
      ),
    ).toEqual(['Central Park']);
    expect(
      names(
        await places
          .find({
            location: {
              $geoWithin: {
                $box: [
                  [-74, 40.75],
                  [-73.9, 40.85],
                ],
              },
            },
          })
          .toArray(),
      ),
    ).toEqual(['Central Park', 'Polo Grounds']);
    const triangle = [
      [-74, 40.7],
      [-73.9, 40.7],
      [-74, 40.8],
    ];
    expect(names(await places.find({ location: { $geoWithin: { $polygon: triangle } } }).toArray())).toEqual([
      'Sara D. Roosevelt Park',
    ]);
    expect(
      names(await places.find({ location: { $geoWithin: { $center: [[-73.94, 40.83], 0.01] } } }).toArray()),
    ).toEqual(['Polo Grounds']);
    expect(
      names(
        await places
          .find({
            location: {
              $within: {
                $box: [
                  [-74, 40.7],
                  [-73.98, 40.72],
                ],
              },
            },
          })
          .toArray(),
      ),
    ).toEqual(['Sara D. Roosevelt Park']);
    const street = {
      type: 'LineString',
      coordinates: [
        [-73.97, 40.77],
        [-73.0, 40.77],
      ],
    };
    expect(names(await places.find({ location: { $geoIntersects: { $geometry: street } } }).toArray())).toEqual([
      'Central Park',
    ]);
  });

  it('refuses malformed GeoJSON on insert and update (16755) and leaves the document as it was', async () => {
    const cases = [
      { location: { type: 'Point', coordinates: [200, 0] } },
      { location: { type: 'Point', coordinates: ['a', 0] } },
      {
        location: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
            ],
          ],
        },
      },
      { location: { type: 'Triangle', coordinates: [0, 0] } },
      { location: 'downtown' },
    ];
    for (const doc of cases) {
      const error = await failure(places.insertOne({ ...doc }));
      expect(error).toMatchObject({ code: 16755, codeName: 'Location16755' });
      expect(error.message).toMatch(/^Can't extract geo keys: /);
    }
    expect(
      error16755Message(
        await failure(places.insertOne({ _id: 9, location: { type: 'Point', coordinates: [200, 0] } })),
      ),
    ).toContain('longitude/latitude is out of bounds, lng: 200 lat: 0');
    expect(
      await failure(places.updateOne({ _id: 1 }, { $set: { location: { type: 'Point', coordinates: [0, 95] } } })),
    ).toMatchObject({ code: 16755 });
    expect((await places.findOne({ _id: 1 }))?.location).toEqual(PLACES[0].location);
    expect(await places.countDocuments()).toBe(3);
  });
});

function error16755Message(error: { message: string }): string {
  return error.message;
}

describe('2dsphere geometries and maintenance', () => {
  it('measures $near to lines and polygons (0 inside), once per document at its nearest location', async () => {
    const shapes = db.collection<AnyDoc>('shapes');
    await shapes.createIndex({ geo: '2dsphere' });
    await shapes.insertMany([
      {
        _id: 'area',
        geo: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [2, 0],
              [2, 2],
              [0, 2],
              [0, 0],
            ],
          ],
        },
      },
      {
        _id: 'road',
        geo: {
          type: 'LineString',
          coordinates: [
            [3, -5],
            [3, 5],
          ],
        },
      },
      {
        _id: 'pair',
        geo: [
          [10, 0],
          [1, 1.5],
        ],
      },
      { _id: 'legacy', geo: [5, 1] },
      { _id: 'none' },
    ]);
    const found = await shapes
      .aggregate([{ $geoNear: { near: { type: 'Point', coordinates: [1, 1] }, distanceField: 'd' } }])
      .toArray();
    expect(found.map((doc) => doc._id)).toEqual(['area', 'pair', 'road', 'legacy']);
    expect(found[0].d).toBe(0);
    expect(found[1].d).toBeCloseTo(radiansBetween([1, 1], [1, 1.5]) * EARTH_RADIUS_METERS, 3);
    expect(found[2].d).toBeCloseTo(radiansBetween([1, 1], [3, 1]) * EARTH_RADIUS_METERS, -1);
  });

  it('follows updates and deletes', async () => {
    const shops = db.collection<AnyDoc>('moving_shops');
    await shops.createIndex({ at: '2dsphere' });
    await shops.insertMany([
      { _id: 1, at: { type: 'Point', coordinates: [0, 0] } },
      { _id: 2, at: { type: 'Point', coordinates: [1, 0] } },
    ]);
    await shops.updateOne({ _id: 1 }, { $set: { at: { type: 'Point', coordinates: [2, 0] } } });
    await shops.insertOne({ _id: 3, at: { type: 'Point', coordinates: [0.5, 0] } });
    await shops.deleteOne({ _id: 2 });
    await shops.updateOne({ _id: 3 }, { $set: { open: true } });
    const near = await shops.find({ at: { $near: { $geometry: { type: 'Point', coordinates: [0, 0] } } } }).toArray();
    expect(near.map((doc) => doc._id)).toEqual([3, 1]);
    expect(near[0].open).toBe(true);
  });

  it('validates and holds only the documents of a partialFilterExpression', async () => {
    const partial = db.collection<AnyDoc>('partial_geo');
    await partial.createIndex({ at: '2dsphere' }, { partialFilterExpression: { open: true } });
    await partial.insertMany([
      { _id: 1, at: 'not a place', open: false },
      { _id: 2, at: { type: 'Point', coordinates: [1, 1] }, open: true },
    ]);
    expect(await failure(partial.insertOne({ _id: 3, at: 'not a place', open: true }))).toMatchObject({ code: 16755 });
    const near = await partial.find({ at: { $near: { $geometry: { type: 'Point', coordinates: [0, 0] } } } }).toArray();
    expect(near.map((doc) => doc._id)).toEqual([2]);
  });

  it('refuses to build an index over a malformed document (16755) and keeps none', async () => {
    const broken = db.collection<AnyDoc>('broken_geo');
    await broken.insertMany([
      { _id: 1, loc: { type: 'Point', coordinates: [0, 0] } },
      { _id: 2, loc: { type: 'Point' } },
    ]);
    expect(await failure(broken.createIndex({ loc: '2dsphere' }))).toMatchObject({ code: 16755 });
    expect((await broken.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
  });
});

describe('geo index answers against brute force', () => {
  /** A seeded generator, so a failure can be replayed. */
  function mulberry32(seed: number): () => number {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const random = mulberry32(7);
  const points = Array.from({ length: 600 }, (_, i) => ({ _id: i, at: [-20 + random() * 40, -10 + random() * 30] }));
  let indexed: Collection<AnyDoc>;
  let plain: Collection<AnyDoc>;

  beforeAll(async () => {
    indexed = db.collection<AnyDoc>('random_indexed');
    plain = db.collection<AnyDoc>('random_plain');
    await indexed.createIndex({ at: '2dsphere' });
    await indexed.insertMany(points.map((doc) => ({ ...doc, at: { type: 'Point', coordinates: doc.at } })));
    await plain.insertMany(points.map((doc) => ({ ...doc, at: { type: 'Point', coordinates: doc.at } })));
  });

  it('returns $near results in the order of their haversine distances, within $maxDistance', async () => {
    for (const center of [
      [0, 0],
      [19, 19],
      [-20, -10],
      [5, 7],
    ]) {
      const maxMeters = 1_500_000;
      const expected = points
        .map((doc) => ({ id: doc._id, meters: radiansBetween(center, doc.at) * EARTH_RADIUS_METERS }))
        .filter((hit) => hit.meters <= maxMeters)
        .sort((a, b) => a.meters - b.meters)
        .map((hit) => hit.id);
      const near = { $geometry: { type: 'Point', coordinates: center }, $maxDistance: maxMeters };
      const found = await indexed.find({ at: { $near: near } }, { projection: { _id: 1 } }).toArray();
      expect(found.map((doc) => doc._id)).toEqual(expected);
      const top = await indexed
        .find({ at: { $near: { $geometry: near.$geometry } } })
        .limit(5)
        .toArray();
      expect(top.map((doc) => doc._id)).toEqual(expected.slice(0, 5));
    }
  });

  it('narrows $geoWithin and $geoIntersects through the index to the documents a full scan finds', async () => {
    const polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [-5, -5],
          [10, -3],
          [12, 12],
          [-4, 8],
          [-5, -5],
        ],
      ],
    };
    const queries = [
      { $geoWithin: { $centerSphere: [[3, 4], 0.1] } },
      {
        $geoWithin: {
          $box: [
            [-10, 0],
            [0, 15],
          ],
        },
      },
      {
        $geoWithin: {
          $polygon: [
            [0, 0],
            [15, 0],
            [0, 15],
          ],
        },
      },
      { $geoWithin: { $center: [[-12, 10], 6] } },
      { $geoWithin: { $geometry: polygon } },
      { $geoIntersects: { $geometry: polygon } },
    ];
    for (const condition of queries) {
      const byIndex = (await indexed.find({ at: condition }).toArray()).map((doc) => doc._id as number);
      const byScan = (await plain.find({ at: condition }).toArray()).map((doc) => doc._id as number);
      expect(byScan.length).toBeGreaterThan(5);
      expect(byIndex.sort((a, b) => a - b)).toEqual(byScan.sort((a, b) => a - b));
    }
    const plan = await indexed.find({ at: queries[0] }).explain('queryPlanner');
    expect(plan.queryPlanner.winningPlan).toMatchObject({
      stage: 'FETCH',
      inputStage: { stage: 'IXSCAN', indexName: 'at_2dsphere' },
    });
  });
});

describe('2d indexes on legacy coordinate pairs', () => {
  let contacts: Collection<AnyDoc>;

  beforeAll(async () => {
    contacts = db.collection<AnyDoc>('contacts');
    await contacts.createIndex({ address: '2d' }, { min: -75, max: 60 });
    await contacts.insertMany([
      { _id: 1, name: 'Evander Otylia', address: [55.5, 42.3] },
      { _id: 2, name: 'Georgine Lestaw', address: [-74, 44.74] },
      { _id: 3, name: 'Near Origin', address: { x: 1, y: 1 } },
    ]);
  });

  it('refuses coordinates outside min/max (13027) and values that are no pair (13026)', async () => {
    expect(await failure(contacts.insertOne({ name: 'Paige Polson', address: [70, 42.3] }))).toMatchObject({
      code: 13027,
    });
    expect(await failure(contacts.insertOne({ name: 'Nowhere', address: 'Main street' }))).toMatchObject({
      code: 13026,
    });
    expect(await failure(db.collection('bad_2d').createIndex({ a: 1, p: '2d' }))).toMatchObject({ code: 67 });
    expect(await failure(db.collection('bad_2d').createIndex({ p: '2d' }, { bits: 40 }))).toMatchObject({ code: 67 });
  });

  it('$near with a legacy pair measures flat distance, with $maxDistance', async () => {
    const near = await contacts.find({ address: { $near: [0, 0] } }).toArray();
    expect(near.map((doc) => doc._id)).toEqual([3, 1, 2]);
    const bounded = await contacts.find({ address: { $near: [0, 0], $maxDistance: 2 } }).toArray();
    expect(bounded.map((doc) => doc._id)).toEqual([3]);
    const [flat] = await contacts.aggregate([{ $geoNear: { near: [0, 0], distanceField: 'd' } }]).toArray();
    expect(flat.d).toBeCloseTo(Math.SQRT2, 12);
  });

  it('$nearSphere and spherical $geoNear with a legacy pair measure radians', async () => {
    const near = await contacts.find({ address: { $nearSphere: [-74, 44], $maxDistance: 0.1 } }).toArray();
    expect(near.map((doc) => doc._id)).toEqual([2]);
    const [first] = await contacts
      .aggregate([{ $geoNear: { near: [-74, 44], distanceField: 'd', spherical: true } }])
      .toArray();
    expect(first.d).toBeCloseTo(radiansBetween([-74, 44], [-74, 44.74]), 9);
  });
});

describe('geo errors', () => {
  it('$near needs a geo index (NoQueryExecutionPlans 291), GeoJSON a 2dsphere one', async () => {
    const plain = db.collection<AnyDoc>('no_geo_index');
    await plain.insertOne({ _id: 1, loc: [0, 0] });
    const error = await failure(plain.find({ loc: { $near: [0, 0] } }).toArray());
    expect(error).toMatchObject({ code: 291, codeName: 'NoQueryExecutionPlans' });
    expect(error.message).toContain('unable to find index for $geoNear query');
    await plain.createIndex({ loc: '2d' });
    const geoJson = { $near: { $geometry: { type: 'Point', coordinates: [0, 0] } } };
    expect(await failure(plain.find({ loc: geoJson }).toArray())).toMatchObject({ code: 291 });
    expect((await plain.find({ loc: { $geoWithin: { $center: [[0, 0], 1] } } }).toArray()).length).toBe(1);
  });

  it('$geoNear must come first (40602) and needs a geo index (IndexNotFound 27)', async () => {
    const places = db.collection<AnyDoc>('places');
    const notFirst = await failure(
      places.aggregate([{ $match: {} }, { $geoNear: { near: [0, 0], distanceField: 'd' } }]).toArray(),
    );
    expect(notFirst).toMatchObject({
      code: 40602,
      message: '$geoNear is only valid as the first stage in a pipeline.',
    });
    await db.collection<AnyDoc>('unindexed').insertOne({ _id: 1 });
    const noIndex = await failure(
      db
        .collection<AnyDoc>('unindexed')
        .aggregate([{ $geoNear: { near: [0, 0], distanceField: 'd' } }])
        .toArray(),
    );
    expect(noIndex).toMatchObject({ code: 27, codeName: 'IndexNotFound' });
  });

  it('asks for key when several geo indexes of a kind exist', async () => {
    const two = db.collection<AnyDoc>('two_geo');
    await two.createIndex({ a: '2dsphere' });
    await two.createIndex({ b: '2dsphere' });
    await two.insertOne({ _id: 1, a: [0, 0], b: [5, 5] });
    expect(
      await failure(two.aggregate([{ $geoNear: { near: [0, 0], distanceField: 'd', spherical: true } }]).toArray()),
    ).toMatchObject({ code: 27 });
    const [keyed] = await two
      .aggregate([{ $geoNear: { near: { type: 'Point', coordinates: [0, 0] }, distanceField: 'd', key: 'b' } }])
      .toArray();
    expect(keyed.d).toBeCloseTo(radiansBetween([0, 0], [5, 5]) * EARTH_RADIUS_METERS, 3);
  });

  it('refuses $near in a pipeline (countDocuments) and a $geoWithin $geometry that is no polygon', async () => {
    const places = db.collection<AnyDoc>('places');
    const count = await failure(
      places.countDocuments({ location: { $near: { $geometry: { type: 'Point', coordinates: [0, 0] } } } }),
    );
    expect(count).toMatchObject({ code: 5626500 });
    const within = await failure(
      places.find({ location: { $geoWithin: { $geometry: { type: 'Point', coordinates: [0, 0] } } } }).toArray(),
    );
    expect(within).toMatchObject({ code: 2 });
  });
});

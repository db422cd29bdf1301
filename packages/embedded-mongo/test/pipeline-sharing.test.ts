import { Double, Int32, Long, type Db, type Document } from 'mongodb';
import { startHarness, type AnyDoc, type Harness } from './helpers';

/**
 * Pipelines share stored documents instead of cloning them, so no stage may write into its input.
 * Every stage kind runs (including those that write through dotted paths, and writes into joined
 * foreign documents), then both collections are re-read and compared with what was inserted.
 */
let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('pipeline_sharing');
});
afterAll(() => harness.stop());

const typed = { promoteValues: false } as const;

const DOCS: AnyDoc[] = [
  {
    _id: 1,
    k: 1,
    a: { b: 1, c: [1, 2], d: new Double(2) },
    arr: [
      { x: 1, y: 'p' },
      { x: 2, y: 'q' },
    ],
    e: [],
    l: Long.fromNumber(7),
    t: 1,
  },
  { _id: 2, k: 2, a: { b: 2, c: [], d: new Double(3.5) }, arr: [{ x: 3, y: 'r' }], e: [], l: Long.fromNumber(8), t: 2 },
  { _id: 3, k: 1, a: { b: 3 }, arr: [], t: 3 },
];
const FOREIGN: AnyDoc[] = [
  { _id: 10, k: 1, f: { g: 1, h: [1] }, parent: null },
  { _id: 11, k: 2, f: { g: 2, h: [] }, parent: 10 },
  { _id: 12, k: 1, f: { g: 3 }, parent: 11 },
];

const lookup = { $lookup: { from: 'foreign', localField: 'k', foreignField: 'k', as: 'j' } };
const graph = {
  $graphLookup: {
    ...{ from: 'foreign', startWith: '$k', connectFromField: '_id', connectToField: 'parent' },
    ...{ as: 'g', depthField: 'd' },
  },
};

/** Each entry: a pipeline that writes into whatever it was given, if the server let it. */
const PIPELINES: Document[][] = [
  [{ $match: { k: 1 } }, { $addFields: { 'a.b': 99, 'a.c.0': 5, 'arr.x': 0, n: 1 } }],
  [{ $set: { 'a.d': '$$REMOVE', 'a.z': 1 } }],
  [{ $project: { 'a.b': 0, 'arr.y': 0 } }],
  [{ $project: { a: { c: 0 }, l: 0 } }],
  [{ $project: { 'a.b': 1, arr: 1, x: '$a' } }],
  [{ $unset: ['a.c', 'arr.x'] }],
  [{ $unwind: { path: '$arr', includeArrayIndex: 'i' } }, { $set: { 'arr.x': -1 } }],
  [{ $unwind: { path: '$e', preserveNullAndEmptyArrays: true, includeArrayIndex: 'i' } }],
  [{ $unwind: { path: '$a.c', preserveNullAndEmptyArrays: true } }],
  [{ $replaceRoot: { newRoot: '$a' } }, { $set: { 'c.1': 0, b: 0 } }, { $unset: 'd' }],
  [{ $replaceWith: { inner: '$a' } }, { $set: { 'inner.b': 0 } }],
  [{ $group: { _id: '$k', docs: { $push: '$$ROOT' } } }, { $unwind: '$docs' }, { $set: { 'docs.a.b': 0 } }],
  [
    { $bucket: { groupBy: '$t', boundaries: [0, 2, 10], output: { docs: { $push: '$$ROOT' } } } },
    { $unwind: '$docs' },
    { $unset: 'docs.a' },
  ],
  [{ $bucketAuto: { groupBy: '$t', buckets: 2 } }],
  [{ $sortByCount: '$k' }],
  [{ $sort: { t: -1 } }, { $skip: 1 }, { $limit: 1 }, { $count: 'n' }],
  [{ $sample: { size: 2 } }, { $set: { 'a.b': 0 } }],
  [{ $redact: { $cond: { if: { $eq: ['$k', 1] }, then: '$$DESCEND', else: '$$PRUNE' } } }],
  [
    {
      $facet: {
        one: [{ $set: { 'a.b': 0 } }],
        two: [{ $project: { 'a.c': 0 } }],
        three: [{ $unwind: { path: '$arr', includeArrayIndex: 'i' } }],
      },
    },
  ],
  [lookup, { $unwind: '$j' }, { $set: { 'j.f.g': 0, 'j.k': 5 } }, { $unset: 'j.f.h' }],
  [
    {
      $lookup: {
        from: 'foreign',
        let: { k: '$k' },
        pipeline: [{ $match: { $expr: { $eq: ['$k', '$$k'] } } }, { $set: { 'f.g': 0 } }],
        as: 'j',
      },
    },
  ],
  [{ ...lookup, $lookup: { ...lookup.$lookup, as: 'a.joined' } }, { $set: { 'a.joined.f.g': 0 } }],
  [graph, { $unwind: '$g' }, { $set: { 'g.f.g': 0 } }, { $project: { 'g.f.h': 0 } }],
  [{ $unionWith: { coll: 'foreign', pipeline: [{ $set: { 'f.g': 0 } }] } }, { $unset: 'f.h' }, { $set: { 'a.b': 0 } }],
  [{ $setWindowFields: { sortBy: { t: 1 }, output: { 'a.total': { $sum: '$t' } } } }],
  [{ $fill: { output: { 'a.b': { value: 0 }, 'a.missing': { value: 1 } } } }],
  [{ $densify: { field: 't', range: { step: 1, bounds: 'full' } } }, { $set: { 'a.b': 0 } }],
  [{ $addFields: { copy: '$a' } }, { $set: { 'copy.b': 0 } }, { $project: { 'copy.c': 0 } }],
];

describe('pipelines over stored documents', () => {
  beforeAll(async () => {
    await db.collection<AnyDoc>('local').insertMany(DOCS.map((doc) => ({ ...doc })));
    await db.collection<AnyDoc>('foreign').insertMany(FOREIGN.map((doc) => ({ ...doc })));
  });

  const nameOf = (pipeline: Document[]): string => pipeline.map((stage) => Object.keys(stage)[0]).join(' ');
  const named = PIPELINES.map((pipeline) => [nameOf(pipeline), pipeline] as const);

  it.each(named)('%s leaves stored documents unchanged', async (_name, pipeline) => {
    const local = db.collection<AnyDoc>('local');
    const foreign = db.collection<AnyDoc>('foreign');
    const before = [await local.find({}, typed).toArray(), await foreign.find({}, typed).toArray()];
    await local.aggregate(pipeline).toArray();
    await local.aggregate(pipeline).toArray();
    expect([await local.find({}, typed).toArray(), await foreign.find({}, typed).toArray()]).toStrictEqual(before);
  });

  it('keeps the number types of stored values copied onto another path', async () => {
    const pairs = db.collection<AnyDoc>('pairs');
    await pairs.insertOne({ _id: 1, a: { x: new Double(2), y: [new Double(1)] }, c: { x: 2, y: [1] } });
    const before = await pairs.find({}, typed).toArray();
    const [moved] = await pairs.aggregate([{ $addFields: { a: '$c', n: 1 } }], typed).toArray();
    expect(moved.n).toEqual(new Int32(1));
    expect(await pairs.find({}, typed).toArray()).toStrictEqual(before);
  });

  it('find projections leave stored documents unchanged', async () => {
    const local = db.collection<AnyDoc>('local');
    const pairs = db.collection<AnyDoc>('pairs');
    const before = [await local.find({}, typed).toArray(), await pairs.find({}, typed).toArray()];
    await local.find({}, { projection: { 'a.b': 0, 'arr.y': 0 } }).toArray();
    await local.find({}, { projection: { a: { c: 0 } } }).toArray();
    await pairs.find({}, { projection: { a: '$c' } }).toArray();
    expect([await local.find({}, typed).toArray(), await pairs.find({}, typed).toArray()]).toStrictEqual(before);
  });

  it('left the inserted documents as they were, BSON number types included', async () => {
    const stored = await db.collection<AnyDoc>('local').find({}, typed).toArray();
    expect(stored[0].l).toBeInstanceOf(Long);
    expect((stored[0].a as Document).d).toBeInstanceOf(Double);
    expect(JSON.stringify(stored)).toBe(JSON.stringify(DOCS));
    const foreign = await db.collection<AnyDoc>('foreign').find({}, typed).toArray();
    expect(JSON.stringify(foreign)).toBe(JSON.stringify(FOREIGN));
  });
});

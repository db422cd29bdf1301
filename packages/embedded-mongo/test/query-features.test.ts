import { Decimal128, Double, Long, MongoServerError, ObjectId, type Db } from 'mongodb';
import { startHarness, type AnyDoc, type Harness } from './helpers';

let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('query_features');
});
afterAll(() => harness.stop());

async function errorCode(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  return (error as MongoServerError).code;
}

describe('explain', () => {
  it('reports the winning plan and, for reads, execution stats', async () => {
    const items = db.collection<AnyDoc>('explained');
    await items.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    await items.createIndex({ x: 1 });
    const plan = await items.find({ x: 2 }).explain('executionStats');
    expect(plan.queryPlanner).toMatchObject({
      namespace: 'query_features.explained',
      winningPlan: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'x_1' } },
    });
    expect(plan.executionStats).toMatchObject({ executionSuccess: true, nReturned: 1 });
    const scan = await items.find({ y: 1 }).explain('queryPlanner');
    expect(scan.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
    expect(scan.executionStats).toBeUndefined();
  });
});

describe('collation', () => {
  it('applies to range operators on strings', async () => {
    const names = db.collection<AnyDoc>('names');
    await names.insertMany([
      { _id: 1, n: 'a' },
      { _id: 2, n: 'B' },
      { _id: 3, n: 'c' },
      { _id: 4, n: 5 },
    ]);
    const found = await names.find({ n: { $gt: 'a' } }, { collation: { locale: 'en', strength: 2 } }).toArray();
    expect(found.map((doc) => doc._id)).toEqual([2, 3]);
    const upTo = await names.find({ n: { $lte: 'b' } }, { collation: { locale: 'en', strength: 2 } }).toArray();
    expect(upTo.map((doc) => doc._id)).toEqual([1, 2]);
  });

  it('makes a unique index reject keys equal under it', async () => {
    const users = db.collection<AnyDoc>('users');
    await users.createIndex({ n: 1 }, { unique: true, collation: { locale: 'en', strength: 2 } });
    await users.insertOne({ _id: 1, n: 'Ann' });
    expect(await errorCode(users.insertOne({ _id: 2, n: 'ANN' }))).toBe(11000);
    await users.insertOne({ _id: 3, n: 'Bob' });
  });
});

describe('BSON number types', () => {
  it('survive nested projections and pipelines that keep the field', async () => {
    const nums = db.collection<AnyDoc>('nums');
    await nums.insertOne({ _id: 1, a: { d: new Double(2), l: Long.fromNumber(5), i: 3 } });
    const typed = { promoteValues: false } as const;
    const [projected] = await nums.find({}, { projection: { 'a.d': 1, 'a.l': 1 }, ...typed }).toArray();
    expect(projected.a).toEqual({ d: new Double(2), l: Long.fromNumber(5) });
    const [added] = await nums.aggregate([{ $addFields: { 'a.x': 1 } }], typed).toArray();
    expect(added.a.d).toBeInstanceOf(Double);
    expect(added.a.l).toBeInstanceOf(Long);
  });

  it('survive an upsert seeded from the filter', async () => {
    const seeded = db.collection('seeded');
    await seeded.updateOne({ _id: Long.fromNumber(7), d: new Double(1) }, { $set: { y: 1 } }, { upsert: true });
    const [doc] = await seeded.find({}, { promoteValues: false }).toArray();
    expect(doc._id).toBeInstanceOf(Long);
    expect(doc.d).toBeInstanceOf(Double);
  });
});

describe('let', () => {
  it('evaluates variables as expressions once per command', async () => {
    const items = db.collection<AnyDoc>('scoped');
    await items.insertMany([
      { _id: 1, x: 3 },
      { _id: 2, x: 4 },
    ]);
    const found = await items
      .aggregate([{ $match: { $expr: { $eq: ['$x', '$$three'] } } }, { $project: { y: '$$three' } }], {
        let: { three: { $add: [1, 2] } },
      })
      .toArray();
    expect(found).toEqual([{ _id: 1, y: 3 }]);
    await items.updateOne({ $expr: { $eq: ['$_id', '$$id'] } }, [{ $set: { z: '$$id' } }], {
      let: { id: { $subtract: [3, 1] } },
    });
    expect(await items.findOne({ _id: 2 })).toEqual({ _id: 2, x: 4, z: 2 });
  });
});

describe('$project', () => {
  it('returns _id first, as MongoDB does', async () => {
    await db.collection<AnyDoc>('ordered').insertOne({ _id: 1, a: 1, b: 2 });
    const [doc] = await db
      .collection('ordered')
      .aggregate([{ $project: { b: 1, c: '$a' } }])
      .toArray();
    expect(Object.keys(doc)).toEqual(['_id', 'b', 'c']);
  });
});

describe('statistics stages', () => {
  it('answers $collStats counts and storage stats and $indexStats per index', async () => {
    const items = db.collection<AnyDoc>('counted');
    await items.insertMany([{ _id: 1 }, { _id: 2 }]);
    const [stats] = await items.aggregate([{ $collStats: { count: {}, storageStats: {} } }]).toArray();
    expect(stats).toMatchObject({ ns: 'query_features.counted', count: 2, storageStats: { count: 2, nindexes: 1 } });
    const [summed] = await items
      .aggregate([{ $collStats: { count: {} } }, { $group: { _id: 1, n: { $sum: '$count' } } }])
      .toArray();
    expect(summed.n).toBe(2);
    expect(await items.aggregate([{ $indexStats: {} }, { $project: { name: 1, _id: 0 } }]).toArray()).toEqual([
      { name: '_id_' },
    ]);
    expect(
      await errorCode(
        db
          .collection('absent')
          .aggregate([{ $collStats: { count: {} } }])
          .toArray(),
      ),
    ).toBe(26);
  });
});

describe('find min/max', () => {
  it('bounds the hinted index keys (min inclusive, max exclusive) and needs a hint', async () => {
    const items = db.collection<AnyDoc>('bounded');
    await items.insertMany([10, 20, 30, 40].map((x) => ({ _id: x, x })));
    await items.createIndex({ x: -1 });
    const found = await items.find({}, { min: { x: 40 }, max: { x: 20 }, hint: { x: -1 } }).toArray();
    expect(found.map((doc) => doc.x).sort()).toEqual([30, 40]);
    expect(await errorCode(items.find({}, { min: { x: 20 } }).toArray())).toBe(51173);
  });
});

describe('find returnKey', () => {
  it('returns the keys of the index used, or empty documents without one', async () => {
    const items = db.collection<AnyDoc>('keyed');
    await items.insertMany([
      { _id: 1, x: 1, y: 'a' },
      { _id: 2, x: 2, y: 'b' },
    ]);
    await items.createIndex({ x: 1, y: 1 });
    expect(await items.find({ x: { $gte: 1 } }, { returnKey: true, sort: { x: 1 } }).toArray()).toEqual([
      { x: 1, y: 'a' },
      { x: 2, y: 'b' },
    ]);
    expect(await items.find({}, { returnKey: true, sort: { _id: -1 } }).toArray()).toEqual([{ _id: 2 }, { _id: 1 }]);
    expect(await items.find({ y: 'a' }, { returnKey: true }).toArray()).toEqual([{}]);
  });
});

describe('$toString', () => {
  it('spells ObjectIds as 24 hex digits and Decimal128 as its digits, as MongoDB does', async () => {
    const values = db.collection('to_string');
    const FIELDS = ['_id', 'price', 'at', 'n', 'none'];
    const id = new ObjectId();
    await values.insertOne({ _id: id, price: Decimal128.fromString('12.50'), at: new Date(0), n: 3, none: null });
    const [converted] = await values
      .aggregate([{ $project: Object.fromEntries(FIELDS.map((field) => [field, { $toString: `$${field}` }])) }])
      .toArray();
    expect(converted).toEqual({
      _id: id.toHexString(),
      price: '12.50',
      at: '1970-01-01T00:00:00.000Z',
      n: '3',
      none: null,
    });
  });
});

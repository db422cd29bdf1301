import { BSON, Decimal128, Double, Long, type Collection, type Document } from 'mongodb';
import { open } from 'lmdb';
import { failure, startHarness, tempDir, type Harness } from './helpers';

/**
 * Decimal128 as MongoDB treats it (manual, "Comparison/Sort Order": numeric types compare by value): equal to the
 * int32, int64 or double of the same value, ordered by value among numbers, one key with them in unique and `_id`
 * indexes, grouped with them; `$sum`/`$avg` return a Decimal128 once a decimal is summed.
 */
const dec = (text: string): Decimal128 => Decimal128.fromString(text);

type NumDoc = { _id: number; a?: unknown };
/** Documents of any `_id` type (the driver's default schema assumes ObjectId). */
type AnyIdDoc = { _id: number | Decimal128; [field: string]: unknown };

/** Every numeric type, around 1 and beyond a double's precision; each `_id` is the document's rank by value. */
const DOCS: NumDoc[] = [
  { _id: 1, a: dec('-Infinity') },
  { _id: 2, a: -5 },
  { _id: 3, a: dec('-0.5') },
  { _id: 4, a: 0 },
  { _id: 5, a: dec('0.1') }, // below the double 0.1, which is 0.1000000000000000055511151231257827…
  { _id: 6, a: 0.1 },
  { _id: 7, a: dec('1.0') },
  { _id: 8, a: 1 },
  { _id: 9, a: Long.fromNumber(1) },
  { _id: 10, a: dec('1.00') },
  { _id: 11, a: new Double(1) },
  { _id: 12, a: dec('1.000000000000000000000000000000001') }, // a double reads it as 1
  { _id: 13, a: dec('2.5') },
  { _id: 14, a: [dec('3'), 'x'] },
  { _id: 15, a: dec('9') },
  { _id: 16, a: 9.5 },
  { _id: 17, a: dec('10') },
  { _id: 18, a: Long.fromString('9223372036854775807') },
  { _id: 19, a: dec('9223372036854775807') },
  { _id: 20, a: dec('1E+400') },
  { _id: 21, a: Infinity },
  { _id: 22, a: 'text' },
  { _id: 23 },
];

let harness: Harness;
let collection: Collection<NumDoc>;
let name = 0;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());
beforeEach(() => {
  collection = harness.client.db('decimal').collection<NumDoc>(`c${name++}`);
});

/** The `_id`s the filter finds through the plan the server picks, after checking a collection scan finds the same. */
async function ids(filter: Document): Promise<number[]> {
  const scan = (await collection.find(filter).hint({ $natural: 1 }).toArray()).map((doc) => doc._id).sort(byNumber);
  const found = (await collection.find(filter).toArray()).map((doc) => doc._id).sort(byNumber);
  expect(found).toEqual(scan);
  return found;
}
const byNumber = (x: number, y: number): number => x - y;
const ONES = [7, 8, 9, 10, 11];

describe.each([
  ['without an index', false],
  ['with an index on a', true],
])('Decimal128 in filters, %s', (_label, indexed) => {
  beforeEach(async () => {
    await collection.insertMany(DOCS);
    if (indexed) await collection.createIndex({ a: 1 });
  });

  it('equals the numbers of the same value, of any type', async () => {
    expect(await ids({ a: 1 })).toEqual(ONES);
    expect(await ids({ a: dec('1') })).toEqual(ONES);
    expect(await ids({ a: Long.fromNumber(1) })).toEqual(ONES);
    expect(await ids({ a: 3 })).toEqual([14]);
    expect(await ids({ a: dec('0.10') })).toEqual([5]);
    expect(await ids({ a: 0.1 })).toEqual([6]);
    expect(await ids({ a: dec('1.000000000000000000000000000000001') })).toEqual([12]);
    expect(await ids({ a: Long.fromString('9223372036854775807') })).toEqual([18, 19]);
    expect(await ids({ a: { $in: [dec('2.50'), 10] } })).toEqual([13, 17]);
    expect(await ids({ a: { $ne: dec('1') } })).toEqual(DOCS.map((doc) => doc._id).filter((id) => !ONES.includes(id)));
    expect(await ids({ a: { $nin: [1, 'text'] } })).toEqual(
      DOCS.map((doc) => doc._id).filter((id) => !ONES.includes(id) && id !== 22),
    );
  });

  it('orders by value in ranges, exactly beyond a double', async () => {
    expect(await ids({ a: { $gt: 1 } })).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    expect(await ids({ a: { $gte: dec('1'), $lt: dec('9.5') } })).toEqual([...ONES, 12, 13, 14, 15]);
    expect(await ids({ a: { $gt: dec('9'), $lte: 10 } })).toEqual([16, 17]);
    expect(await ids({ a: { $lt: 0.1 } })).toEqual([1, 2, 3, 4, 5]);
    expect(await ids({ a: { $gt: dec('0.1'), $lt: 1 } })).toEqual([6]);
    expect(await ids({ a: { $gt: 1e300 } })).toEqual([20, 21]);
    expect(await ids({ a: { $lte: dec('-Infinity') } })).toEqual([1]);
  });

  it('sorts decimals among the numbers by value', async () => {
    const numeric = DOCS.filter((doc) => doc._id !== 14 && doc._id <= 21).map((doc) => doc._id);
    const ascending = await collection.find({ _id: { $in: numeric } }, { sort: { a: 1, _id: 1 } }).toArray();
    expect(ascending.map((doc) => doc._id)).toEqual(numeric);
    // Descending: the string, the numbers (equal ones by _id, descending), then the missing field (as null).
    const descending = await collection.find({ _id: { $ne: 14 } }, { sort: { a: -1, _id: -1 } }).toArray();
    expect(descending.map((doc) => doc._id)).toEqual([22, ...[...numeric].reverse(), 23]);
    const aggregated = await collection
      .aggregate([{ $match: { _id: { $in: [17, 3, 16, 5, 13, 6, 15] } } }, { $sort: { a: 1 } }])
      .toArray();
    expect(aggregated.map((doc) => doc._id)).toEqual([3, 5, 6, 13, 15, 16, 17]);
  });
});

describe('Decimal128 in $all, $elemMatch and $pull', () => {
  it('matches and pulls array elements by value', async () => {
    await collection.insertMany([
      { _id: 1, a: [dec('3'), dec('1.5')] },
      { _id: 2, a: [3, 1] },
    ]);
    expect(await ids({ a: { $all: [3, 1.5] } })).toEqual([1]);
    expect(await ids({ a: { $all: [dec('3.0')] } })).toEqual([1, 2]);
    expect(await ids({ a: { $elemMatch: { $gt: 1, $lt: dec('2') } } })).toEqual([1]);
    await collection.updateMany({}, { $pull: { a: { $in: [3, dec('1.50')] } } } as Document);
    expect(await collection.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: [] },
      { _id: 2, a: [1] },
    ]);
  });
});

describe('Decimal128 as an index key', () => {
  it('is one unique key with the numbers of its value', async () => {
    await collection.createIndex({ a: 1 }, { unique: true });
    await collection.insertOne({ _id: 1, a: 1 });
    expect(await failure(collection.insertOne({ _id: 2, a: dec('1.00') }))).toMatchObject({ code: 11000 });
    expect(await failure(collection.insertOne({ _id: 3, a: Long.fromNumber(1) }))).toMatchObject({ code: 11000 });
    await collection.insertOne({ _id: 4, a: dec('1.000000000000000000000000000000001') });
    await collection.insertOne({ _id: 5, a: dec('0.1') });
    await collection.insertOne({ _id: 6, a: 0.1 });
    expect(await failure(collection.insertOne({ _id: 7, a: dec('0.10') }))).toMatchObject({ code: 11000 });
    await collection.insertOne({ _id: 8, a: dec('9223372036854775807') });
    expect(await failure(collection.insertOne({ _id: 9, a: Long.MAX_VALUE }))).toMatchObject({ code: 11000 });
  });

  it('is one _id with the numbers of its value', async () => {
    const docs = harness.client.db('decimal').collection<AnyIdDoc>(`ids${name++}`);
    await docs.insertOne({ _id: 1, n: 1 });
    expect(await failure(docs.insertOne({ _id: dec('1'), n: 2 }))).toMatchObject({ code: 11000 });
    expect(await failure(docs.insertOne({ _id: dec('1.0'), n: 3 }))).toMatchObject({ code: 11000 });
    await docs.insertOne({ _id: dec('2.50'), n: 4 });
    expect(await docs.findOne({ _id: 2.5 })).toEqual({ _id: dec('2.50'), n: 4 });
    expect(await docs.findOne({ _id: dec('1.000') })).toEqual({ _id: 1, n: 1 });
    expect(await docs.updateOne({ _id: dec('2.5') }, { $set: { n: 5 } })).toMatchObject({ modifiedCount: 1 });
    expect(await docs.deleteOne({ _id: 2.5 })).toMatchObject({ deletedCount: 1 });
    expect(await docs.countDocuments()).toBe(1);
  });
});

describe('Decimal128 in aggregations', () => {
  beforeEach(() =>
    collection.insertMany([
      { _id: 1, a: dec('1.0') },
      { _id: 2, a: 1 },
      { _id: 3, a: dec('2.50') },
      { _id: 4, a: 2.5 },
      { _id: 5, a: Long.fromNumber(1) },
      { _id: 6, a: 'one' },
    ]),
  );

  it('groups equal numbers together, keyed by the first one seen', async () => {
    const groups = await collection
      .aggregate([{ $sort: { _id: 1 } }, { $group: { _id: '$a', ids: { $push: '$_id' } } }, { $sort: { ids: 1 } }])
      .toArray();
    expect(groups).toEqual([
      { _id: dec('1.0'), ids: [1, 2, 5] },
      { _id: dec('2.50'), ids: [3, 4] },
      { _id: 'one', ids: [6] },
    ]);
    const composite = await collection
      .aggregate([
        { $match: { _id: { $lte: 4 } } },
        { $sort: { _id: -1 } },
        { $group: { _id: { v: '$a' }, n: { $sum: 1 } } },
      ])
      .toArray();
    expect(composite).toEqual([
      { _id: { v: 2.5 }, n: 2 },
      { _id: { v: 1 }, n: 2 },
    ]);
  });

  it('gives one distinct value per number, and joins numbers by value in $lookup', async () => {
    const distinct = await collection.distinct('a', { _id: { $lte: 5 } });
    expect(distinct).toHaveLength(2);
    const prices = harness.client.db('decimal').collection<AnyIdDoc>(`prices${name++}`);
    await prices.insertMany([
      { _id: 1, amount: 1 },
      { _id: 2, amount: dec('2.5000') },
    ]);
    const joined = await collection
      .aggregate([
        { $match: { _id: { $in: [1, 4] } } },
        { $sort: { _id: 1 } },
        { $lookup: { from: prices.collectionName, localField: 'a', foreignField: 'amount', as: 'prices' } },
        { $project: { _id: 1, prices: '$prices._id' } },
      ])
      .toArray();
    expect(joined).toEqual([
      { _id: 1, prices: [1] },
      { _id: 4, prices: [2] },
    ]);
  });

  it('sums and averages to a Decimal128 exactly when a decimal takes part', async () => {
    const [totals] = await collection
      .aggregate([{ $group: { _id: null, sum: { $sum: '$a' }, avg: { $avg: '$a' } } }])
      .toArray();
    // The decimals' 3.50 plus the other numbers' 4.5, a double converted to 34 digits (MongoDB's
    // `Decimal128(double, kRoundTo34Digits)`): 8 with 33 decimal places; divided by 5 at that exponent.
    expect(totals).toEqual({
      _id: null,
      sum: dec('8.000000000000000000000000000000000'),
      avg: dec('1.600000000000000000000000000000000'),
    });
    const [integral] = await collection
      .aggregate([{ $match: { _id: { $in: [1, 2, 3, 5] } } }, { $group: { _id: null, sum: { $sum: '$a' } } }])
      .toArray();
    // The other numbers' total converts as a double to 34 digits even when integral, as MongoDB's does.
    expect(integral).toEqual({ _id: null, sum: dec('5.500000000000000000000000000000000') });
    const [decimalsOnly] = await collection
      .aggregate([{ $match: { _id: { $in: [1, 3] } } }, { $group: { _id: null, sum: { $sum: '$a' } } }])
      .toArray();
    // Decimals alone add in decimal arithmetic: the exponent of the most precise one (two places) stays.
    expect(decimalsOnly).toEqual({ _id: null, sum: dec('3.50') });
    const [plain] = await collection
      .aggregate([{ $match: { _id: { $in: [2, 4, 5] } } }, { $group: { _id: null, sum: { $sum: '$a' } } }])
      .toArray();
    expect(plain).toEqual({ _id: null, sum: 4.5 });
  });

  it('takes $min and $max by value', async () => {
    const [extremes] = await collection
      .aggregate([{ $group: { _id: null, min: { $min: '$a' }, max: { $max: '$a' } } }])
      .toArray();
    // 'one' is a string: strings sort after numbers.
    expect(extremes).toEqual({ _id: null, min: dec('1.0'), max: 'one' });
    const [numbers] = await collection
      .aggregate([
        { $match: { _id: { $lte: 5 } } },
        { $group: { _id: null, min: { $min: '$a' }, max: { $max: '$a' } } },
      ])
      .toArray();
    expect(numbers).toEqual({ _id: null, min: dec('1.0'), max: dec('2.50') });
  });

  it('adds with $add to a Decimal128 when a decimal is an operand', async () => {
    const added = await collection
      .aggregate([
        { $match: { _id: { $in: [1, 3, 6] } } },
        { $sort: { _id: 1 } },
        { $project: { s: { $add: ['$a', dec('0.25')] }, i: { $add: ['$a', 2] }, n: { $add: ['$a', '$missing'] } } },
      ])
      .toArray()
      .catch((error: Error) => error.message);
    expect(added).toMatch(/\$add/); // 'one' is no number: MongoDB fails the aggregate as well
    const sums = await collection
      .aggregate([
        { $match: { _id: { $in: [1, 3] } } },
        { $sort: { _id: 1 } },
        { $project: { s: { $add: ['$a', dec('0.25')] }, i: { $add: ['$a', 2] }, n: { $add: ['$a', null] } } },
      ])
      .toArray();
    expect(sums).toEqual([
      { _id: 1, s: dec('1.25'), i: dec('3.000000000000000000000000000000000'), n: null },
      { _id: 3, s: dec('2.75'), i: dec('4.500000000000000000000000000000000'), n: null },
    ]);
  });

  it('sums a double converted to 34 digits, then rounds the sum to 34 digits', async () => {
    const docs = harness.client.db('decimal').collection(`sum${name++}`);
    await docs.insertMany([{ v: dec('1') }, { v: 0.1 }, { v: dec('1') }]);
    const [result] = await docs.aggregate([{ $group: { _id: null, s: { $sum: '$v' }, m: { $avg: '$v' } } }]).toArray();
    expect(result.s).toEqual(dec('2.100000000000000005551115123125783'));
    expect(result.m).toEqual(dec('0.7000000000000000018503717077085943'));
  });
});

describe('a stored store with decimals', () => {
  const NS = 'store.docs';

  it('reopens with its decimal _ids and index keys found by value', async () => {
    const dir = tempDir();
    try {
      const first = await startHarness({ dbPath: dir.path });
      const docs = first.client.db('store').collection<AnyIdDoc>('docs');
      await docs.createIndex({ a: 1 }, { unique: true });
      await docs.insertMany([
        { _id: dec('1.0'), a: dec('10.0') },
        { _id: 2, a: dec('0.1') },
      ]);
      await first.stop();
      const second = await startHarness({ dbPath: dir.path });
      try {
        const reopened = second.client.db('store').collection<AnyIdDoc>('docs');
        expect(await reopened.findOne({ _id: 1 })).toEqual({ _id: dec('1.0'), a: dec('10.0') });
        expect(await reopened.findOne({ a: 10 })).toEqual({ _id: dec('1.0'), a: dec('10.0') });
        expect(await failure(reopened.insertOne({ _id: 3, a: Long.fromNumber(10) }))).toMatchObject({ code: 11000 });
        expect(
          (
            await reopened
              .find({ a: { $gt: 0.05 } })
              .sort({ a: -1 })
              .toArray()
          ).map((doc) => doc._id),
        ).toEqual([dec('1.0'), 2]);
      } finally {
        await second.stop();
      }
    } finally {
      dir.remove();
    }
  });

  /** The key the earlier rule gave a decimal `_id`: its class name and text. */
  const legacyKey = (id: Decimal128): Buffer =>
    Buffer.from(`${NS}\u0000${JSON.stringify([['decimal128', id.toString()]])}`);

  async function putLegacy(path: string, docs: { _id: Decimal128; tag: string }[]): Promise<void> {
    const root = open({ path, noSubdir: false, maxDbs: 4 });
    const table = root.openDB<Buffer, Buffer>({ name: 'docs', encoding: 'binary', keyEncoding: 'binary' });
    await root.transaction(() => {
      for (const doc of docs) void table.put(legacyKey(doc._id), Buffer.from(BSON.serialize(doc)));
    });
    await root.close();
  }

  async function createCollection(path: string): Promise<void> {
    const harness = await startHarness({ dbPath: path });
    await harness.client.db('store').createCollection('docs');
    await harness.stop();
  }

  it('moves decimal _ids stored under the earlier keys to the keys of their value, once', async () => {
    const dir = tempDir();
    try {
      await createCollection(dir.path);
      await putLegacy(dir.path, [
        { _id: dec('1.50'), tag: 'double-valued' },
        { _id: dec('0.1'), tag: 'no double' },
      ]);
      const first = await startHarness({ dbPath: dir.path });
      try {
        const db = first.client.db('store');
        expect((await db.admin().command({ serverStatus: 1 })).embeddedMongo.storage.rekeyedDocuments).toBe(2);
        const docs = db.collection<AnyIdDoc>('docs');
        expect(await docs.findOne({ _id: 1.5 })).toEqual({ _id: dec('1.50'), tag: 'double-valued' });
        expect(await docs.findOne({ _id: dec('0.100') })).toEqual({ _id: dec('0.1'), tag: 'no double' });
        expect(await failure(docs.insertOne({ _id: 1.5, tag: 'duplicate' }))).toMatchObject({ code: 11000 });
      } finally {
        await first.stop();
      }
      const second = await startHarness({ dbPath: dir.path });
      try {
        const db = second.client.db('store');
        expect((await db.admin().command({ serverStatus: 1 })).embeddedMongo.storage.rekeyedDocuments).toBe(0);
        expect(await db.collection('docs').countDocuments()).toBe(2);
      } finally {
        await second.stop();
      }
    } finally {
      dir.remove();
    }
  });

  it('refuses to open a store holding two _ids of one value (possible under the earlier keys)', async () => {
    const dir = tempDir();
    try {
      await createCollection(dir.path);
      const first = await startHarness({ dbPath: dir.path });
      await first.client.db('store').collection<AnyIdDoc>('docs').insertOne({ _id: 1, tag: 'int' });
      await first.stop();
      await putLegacy(dir.path, [{ _id: dec('1.0'), tag: 'decimal' }]);
      await expect(startHarness({ dbPath: dir.path })).rejects.toThrow(/equal _id values/);
      // Nothing was moved: both documents are still stored, under their own keys.
      const root = open({ path: dir.path, noSubdir: false, maxDbs: 4, readOnly: true });
      const table = root.openDB<Buffer, Buffer>({ name: 'docs', encoding: 'binary', keyEncoding: 'binary' });
      expect([...table.getKeys()].filter((key) => key.toString().startsWith(NS))).toHaveLength(2);
      await root.close();
    } finally {
      dir.remove();
    }
  });
});

import { MongoServerError, type Db } from 'mongodb';
import { startHarness, type AnyDoc, type Harness } from './helpers';

let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('collection_options');
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

describe('collection default collation', () => {
  it('applies to queries and new indexes unless a command names its own', async () => {
    await db.createCollection('fr', { collation: { locale: 'fr', strength: 1 } });
    const fr = db.collection<AnyDoc>('fr');
    await fr.insertMany([
      { _id: 1, n: 'côte' },
      { _id: 2, n: 'cote' },
    ]);
    expect(await fr.countDocuments({ n: 'COTE' })).toBe(2);
    expect(await fr.countDocuments({ n: 'COTE' }, { collation: { locale: 'simple' } })).toBe(0);
    await fr.createIndex({ n: 1 });
    expect((await fr.listIndexes().toArray())[1].collation).toMatchObject({ locale: 'fr', strength: 1 });
  });
});

describe('indexes', () => {
  it('refuses a second name for an existing index and conflicting options under one name', async () => {
    const items = db.collection<AnyDoc>('conflicts');
    await items.createIndex({ x: 1 });
    expect(await items.createIndex({ x: 1 })).toBe('x_1');
    expect(await errorCode(items.createIndex({ x: 1 }, { name: 'other' }))).toBe(85);
    expect(await errorCode(items.createIndex({ x: 1 }, { unique: true }))).toBe(85);
    expect(await errorCode(items.createIndex({ y: 1 }, { name: 'x_1' }))).toBe(86);
    expect(await items.createIndex({ x: 1 }, { name: 'x_partial', partialFilterExpression: { x: { $gt: 0 } } })).toBe(
      'x_partial',
    );
  });

  it('answers createIndexes of existing indexes with a note and spells out index collations', async () => {
    await db.collection<AnyDoc>('noted').createIndex({ x: 1 });
    const again = await db.command({ createIndexes: 'noted', indexes: [{ key: { x: 1 }, name: 'x_1' }] });
    expect(again).toEqual({ numIndexesBefore: 2, numIndexesAfter: 2, note: 'all indexes already exist', ok: 1 });
    await db.collection<AnyDoc>('noted').createIndex({ y: 1 }, { collation: { locale: 'en_US', strength: 2 } });
    const [, , collated] = await db.collection('noted').listIndexes().toArray();
    expect(collated.collation).toEqual({
      locale: 'en_US',
      caseLevel: false,
      caseFirst: 'off',
      strength: 2,
      numericOrdering: false,
      alternate: 'non-ignorable',
      maxVariable: 'punct',
      normalization: false,
      backwards: false,
      version: '57.1',
    });
  });

  it('hides and unhides an index with collMod; a hidden index cannot be hinted', async () => {
    const items = db.collection<AnyDoc>('hidden');
    await items.insertOne({ _id: 1, x: 1 });
    await items.createIndex({ x: 1 });
    const reply = await db.command({ collMod: 'hidden', index: { name: 'x_1', hidden: true } });
    expect(reply).toMatchObject({ hidden_old: false, hidden_new: true });
    expect((await items.listIndexes().toArray())[1]).toMatchObject({ name: 'x_1', hidden: true });
    expect(await errorCode(items.find({}, { hint: 'x_1' }).toArray())).toBe(2);
    await db.command({ collMod: 'hidden', index: { keyPattern: { x: 1 }, hidden: false } });
    expect(await items.find({}, { hint: 'x_1' }).toArray()).toHaveLength(1);
  });
});

describe('collMod unique conversion', () => {
  it('prepares an index (new duplicates refused), reports violations, then converts once resolved', async () => {
    const items = db.collection<AnyDoc>('converted');
    await items.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 1 },
    ]);
    await items.createIndex({ x: 1 });
    expect(await errorCode(db.command({ collMod: 'converted', index: { keyPattern: { x: 1 }, unique: true } }))).toBe(
      72,
    );
    expect(
      await db.command({ collMod: 'converted', index: { keyPattern: { x: 1 }, prepareUnique: true } }),
    ).toMatchObject({ prepareUnique_old: false, prepareUnique_new: true });
    expect(await errorCode(items.insertOne({ _id: 3, x: 1 }))).toBe(11000);
    const refused = await db
      .command({ collMod: 'converted', index: { keyPattern: { x: 1 }, unique: true } })
      .catch((error: MongoServerError) => error);
    expect(refused).toMatchObject({ code: 359, errorResponse: { violations: [{ ids: [1, 2] }] } });
    await items.deleteOne({ _id: 2 });
    expect(await db.command({ collMod: 'converted', index: { keyPattern: { x: 1 }, unique: true } })).toMatchObject({
      unique_new: true,
    });
    expect((await items.listIndexes().toArray())[1]).toMatchObject({ name: 'x_1', unique: true });
  });
});

describe('clustered collections', () => {
  it('list their clustered index in place of _id_ and accept only an _id key', async () => {
    await db.createCollection('clustered', { clusteredIndex: { key: { _id: 1 }, unique: true, name: 'by id' } });
    const [info] = await db.listCollections({ name: 'clustered' }, { nameOnly: false }).toArray();
    expect(info.options).toEqual({ clusteredIndex: { v: 2, key: { _id: 1 }, unique: true, name: 'by id' } });
    expect(await db.collection('clustered').listIndexes().toArray()).toEqual([
      { v: 2, key: { _id: 1 }, unique: true, name: 'by id', clustered: true },
    ]);
    expect(
      await errorCode(db.createCollection('unclustered', { clusteredIndex: { key: { x: 1 }, unique: true } })),
    ).toBe(72);
  });
});

describe('capped collections', () => {
  it('drop their oldest documents beyond max documents or size bytes', async () => {
    await db.createCollection('log', { capped: true, size: 4096, max: 3 });
    const log = db.collection<AnyDoc>('log');
    for (let i = 1; i <= 5; i++) await log.insertOne({ _id: i });
    expect((await log.find().toArray()).map((doc) => doc._id)).toEqual([3, 4, 5]);
    await db.createCollection('small', { capped: true, size: 1000 });
    const small = db.collection<AnyDoc>('small');
    for (let i = 1; i <= 5; i++) await small.insertOne({ _id: i, pad: 'x'.repeat(300) });
    expect((await small.find().toArray()).map((doc) => doc._id)).toEqual([3, 4, 5]);
    expect(await errorCode(db.command({ create: 'sizeless', capped: true }))).toBe(72);
    expect((await log.find().sort({ $natural: -1 }).toArray()).map((doc) => doc._id)).toEqual([5, 4, 3]);
    expect(
      (
        await log
          .find({}, { hint: { $natural: -1 } })
          .limit(1)
          .toArray()
      ).map((doc) => doc._id),
    ).toEqual([5]);
  });
});

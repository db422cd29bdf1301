import type { Db, Document } from 'mongodb';
import { failure, startHarness, type Harness } from './helpers';

// Update operators and filters run with mingo options compiled once for the commands with default options (no
// collation, no `let`) and compiled per command otherwise (src/query/mingo-options.ts). These cases check that
// what a command brings of its own still applies, and that nothing of one command stays for the next.
type Loose = Document & { _id: number };

let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('update_options');
});
afterAll(() => harness.stop());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('positional $ across documents', () => {
  it('updates in each document the element its own filter match found, wherever it is', async () => {
    const coll = db.collection<Loose>('positional_many');
    await coll.insertMany([
      {
        _id: 1,
        items: [
          { sku: 'b', qty: 1 },
          { sku: 'a', qty: 1 },
        ],
      },
      { _id: 2, items: [{ sku: 'a', qty: 5 }] },
      {
        _id: 3,
        items: [
          { sku: 'c', qty: 0 },
          { sku: 'b', qty: 0 },
          { sku: 'a', qty: 2 },
        ],
      },
      { _id: 4, items: [{ sku: 'c', qty: 9 }] },
    ]);
    const result = await coll.updateMany({ 'items.sku': 'a' }, { $inc: { 'items.$.qty': 10 } });
    expect(result).toMatchObject({ matchedCount: 3, modifiedCount: 3 });
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      {
        _id: 1,
        items: [
          { sku: 'b', qty: 1 },
          { sku: 'a', qty: 11 },
        ],
      },
      { _id: 2, items: [{ sku: 'a', qty: 15 }] },
      {
        _id: 3,
        items: [
          { sku: 'c', qty: 0 },
          { sku: 'b', qty: 0 },
          { sku: 'a', qty: 12 },
        ],
      },
      { _id: 4, items: [{ sku: 'c', qty: 9 }] },
    ]);
  });

  it('finds the element by an $elemMatch of two fields, as findOneAndUpdate returns it', async () => {
    const coll = db.collection<Loose>('positional_elem_match');
    await coll.insertOne({
      _id: 1,
      quantity: 4,
      stock: [
        { at: 'x', onHand: 2 },
        { at: 'y', onHand: 2 },
      ],
    });
    const after = await coll.findOneAndUpdate(
      { _id: 1, quantity: { $gte: 1 }, stock: { $elemMatch: { at: 'y', onHand: 2 } } },
      { $inc: { quantity: -1, 'stock.$.onHand': -1 } },
      { returnDocument: 'after' },
    );
    expect(after).toEqual({
      _id: 1,
      quantity: 3,
      stock: [
        { at: 'x', onHand: 2 },
        { at: 'y', onHand: 1 },
      ],
    });
    const stale = await coll.findOneAndUpdate(
      { _id: 1, stock: { $elemMatch: { at: 'y', onHand: 2 } } },
      { $inc: { 'stock.$.onHand': -1 } },
    );
    expect(stale).toBeNull();
  });

  it('matches the element under the command collation', async () => {
    const coll = db.collection<Loose>('positional_collation');
    await coll.insertOne({ _id: 1, tags: [{ name: 'Alpha' }, { name: 'BETA' }] });
    const collation = { locale: 'en', strength: 2 };
    const result = await coll.updateOne({ 'tags.name': 'beta' }, { $set: { 'tags.$.hit': true } }, { collation });
    expect(result.modifiedCount).toBe(1);
    expect((await coll.findOne({ _id: 1 }))?.tags).toEqual([{ name: 'Alpha' }, { name: 'BETA', hit: true }]);
    const plain = await failure(coll.updateOne({ _id: 1 }, { $set: { 'tags.$.hit': false } }));
    expect(plain).toMatchObject({ code: 2 });
  });
});

describe('options of one command do not stay for the next', () => {
  it('matches case-insensitively only the command that asks for a collation', async () => {
    const coll = db.collection<Loose>('collation_then_default');
    await coll.insertMany([
      { _id: 1, name: 'ABC', n: 0 },
      { _id: 2, name: 'abc', n: 0 },
    ]);
    const collated = await coll.updateMany(
      { name: 'abc' },
      { $inc: { n: 1 } },
      { collation: { locale: 'en', strength: 2 } },
    );
    expect(collated.modifiedCount).toBe(2);
    const plain = await coll.updateMany({ name: 'abc' }, { $inc: { n: 1 } });
    expect(plain.modifiedCount).toBe(1);
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, name: 'ABC', n: 1 },
      { _id: 2, name: 'abc', n: 2 },
    ]);
    expect(await coll.countDocuments({ name: 'abc' }, { collation: { locale: 'en', strength: 2 } })).toBe(2);
    expect(await coll.countDocuments({ name: 'abc' })).toBe(1);
  });

  it('reads `let` variables in the command that defines them, and refuses them in the next', async () => {
    const coll = db.collection<{ _id: number; size: number; tags: string[]; big?: boolean }>('let_then_default');
    await coll.insertMany([
      { _id: 1, size: 3, tags: ['a', 'b'] },
      { _id: 2, size: 8, tags: ['a'] },
    ]);
    const result = await coll.updateMany(
      { $expr: { $gt: ['$size', '$$limit'] } },
      { $set: { big: true }, $pull: { tags: 'a' } },
      { let: { limit: 5 } },
    );
    expect(result.modifiedCount).toBe(1);
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, size: 3, tags: ['a', 'b'] },
      { _id: 2, size: 8, tags: [], big: true },
    ]);
    const unknown = await failure(coll.updateMany({ $expr: { $gt: ['$size', '$$limit'] } }, { $set: { big: false } }));
    expect(unknown.message).toMatch(/limit/);
  });

  it('dates each statement by its own clock with $currentDate, both fields of one statement alike', async () => {
    const coll = db.collection<{ _id: number; at?: Date; stamp?: Date }>('current_date');
    await coll.insertMany([{ _id: 1 }, { _id: 2 }]);
    const beforeFirst = Date.now();
    await coll.updateOne({ _id: 1 }, { $currentDate: { at: true, stamp: { $type: 'date' } } });
    await pause(20);
    const beforeSecond = Date.now();
    await coll.updateOne({ _id: 2 }, { $currentDate: { at: true } });
    const [first, second] = await coll.find().sort({ _id: 1 }).toArray();
    expect(first.at).toBeInstanceOf(Date);
    expect(first.at).toEqual(first.stamp);
    const time = (date?: Date): number => date?.getTime() ?? NaN;
    expect(time(first.at)).toBeGreaterThanOrEqual(beforeFirst);
    expect(time(first.at)).toBeLessThan(beforeSecond);
    expect(time(second.at)).toBeGreaterThanOrEqual(beforeSecond);
  });
});

describe('array filters across documents', () => {
  it('applies the filtered positional to every matching document and element', async () => {
    const coll = db.collection<Loose>('array_filters_many');
    await coll.insertMany([
      { _id: 1, grades: [80, 95, 100] },
      { _id: 2, grades: [100, 70] },
      { _id: 3, grades: [60] },
    ]);
    const result = await coll.updateMany(
      {},
      { $set: { 'grades.$[high]': 'top' } },
      { arrayFilters: [{ high: { $gte: 95 } }] },
    );
    expect(result).toMatchObject({ matchedCount: 3, modifiedCount: 2 });
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, grades: [80, 'top', 'top'] },
      { _id: 2, grades: ['top', 70] },
      { _id: 3, grades: [60] },
    ]);
  });
});

import { Double, Int32, Long, serialize } from 'bson';
import type { Collection as DriverCollection, Document } from 'mongodb';
import { copyAlong } from '../src/ops/documents';
import { fromBson } from '../src/bson/codec';
import { numberTypesOf } from '../src/bson/number-types';
import { failure, startHarness, type AnyDoc, type Harness } from './helpers';

/**
 * An operator update of a stored document copies only the containers on the paths it writes and shares the rest
 * with the version it replaces (`copyAlong`): the replaced version, as a `findOneAndUpdate` answers it before the
 * update, must not change, nor any number type of what is shared or copied.
 */
describe('copyAlong', () => {
  it('copies the document and the containers on the paths, shares the rest, and keeps number types', () => {
    const doc = fromBson(
      serialize({ a: { b: [{ q: new Int32(1) }, { q: new Double(2) }] }, c: { l: Long.fromNumber(3) } }),
    );
    const copy = copyAlong(doc, ['a.b.1.q'])!;
    expect(copy).not.toBe(doc);
    expect(copy.a).not.toBe(doc.a);
    expect((copy.a as AnyDoc).b).not.toBe((doc.a as AnyDoc).b);
    const [first, second] = (copy.a as { b: AnyDoc[] }).b;
    expect(first).toBe((doc.a as { b: AnyDoc[] }).b[0]);
    expect(second).not.toBe((doc.a as { b: AnyDoc[] }).b[1]);
    expect(numberTypesOf(second)).toEqual({ q: 'double' });
    expect(copy.c).toBe(doc.c);
  });

  it('refuses a path through an array by a name', () => {
    expect(copyAlong({ a: [{ q: 1 }] }, ['a.q'])).toBeUndefined();
  });
});

type Item = { _id: number } & Document;

describe('updates of stored documents share what they do not write', () => {
  let harness: Harness;
  let items: DriverCollection<Item>;

  beforeAll(async () => {
    harness = await startHarness();
    items = harness.client.db('shared').collection<Item>('items');
    await items.createIndex({ 'meta.tags': 1 });
  });
  afterAll(() => harness.stop());

  const original = () => ({
    _id: 1,
    meta: { tags: ['a', 'b'], price: new Double(5), big: Long.fromNumber(7) },
    lines: [
      { sku: 'x', qty: 1 },
      { sku: 'y', qty: 2 },
    ],
    other: { untouched: [1, 2, 3] },
  });

  beforeEach(async () => {
    await items.deleteMany({});
    await items.insertOne(original());
  });

  it('answers the version before each update as it was stored', async () => {
    const before = await items.findOneAndUpdate(
      { _id: 1 },
      { $inc: { 'lines.1.qty': 5 }, $push: { 'meta.tags': 'c' } } as Document,
      { returnDocument: 'before' },
    );
    expect(before).toEqual(await roundTrip(original()));
    const second = await items.findOneAndUpdate(
      { _id: 1 },
      { $set: { 'other.added': true } },
      { returnDocument: 'before' },
    );
    expect(second).toMatchObject({ lines: [{ qty: 1 }, { qty: 7 }], meta: { tags: ['a', 'b', 'c'] } });
    expect(second).not.toHaveProperty('other.added');
    expect(await items.findOne({ _id: 1 })).toMatchObject({ other: { untouched: [1, 2, 3], added: true } });
  });

  it('keeps the number types of shared and copied containers', async () => {
    await items.updateOne({ _id: 1 }, { $push: { 'meta.tags': 'c' }, $inc: { 'lines.0.qty': 1 } } as Document);
    const raw = await items.findOne({ _id: 1 }, { promoteValues: false });
    const meta = raw!.meta as { price: unknown; big: unknown };
    expect(meta.price).toBeInstanceOf(Double);
    expect(meta.big).toBeInstanceOf(Long);
    expect((raw!.lines as { qty: unknown }[])[0].qty).toEqual(new Int32(2));
  });

  it('keeps the index of a written path right, and of an unwritten one', async () => {
    await items.updateOne({ _id: 1 }, { $pull: { 'meta.tags': 'a' } } as Document);
    expect(await items.countDocuments({ 'meta.tags': 'a' })).toBe(0);
    expect(await items.countDocuments({ 'meta.tags': 'b' })).toBe(1);
    await items.updateOne({ _id: 1 }, { $set: { 'lines.0.qty': 9 } });
    expect(await items.find({ 'meta.tags': 'b' }).hint({ 'meta.tags': 1 }).toArray()).toMatchObject([
      { lines: [{ qty: 9 }, { qty: 2 }] },
    ]);
  });

  it('resolves a positional `$` in the version as stored and copies only along its path', async () => {
    const before = await items.findOneAndUpdate(
      { _id: 1, 'lines.sku': 'y', 'lines.qty': { $gte: 2 } },
      { $inc: { 'lines.$.qty': 3, 'meta.price': 1 } },
      { returnDocument: 'before' },
    );
    expect(before).toEqual(await roundTrip(original()));
    const raw = await items.findOne({ _id: 1 }, { promoteValues: false });
    expect(raw).toMatchObject({ lines: [{ qty: new Int32(1) }, { qty: new Int32(5) }] });
    expect(await items.findOne({ _id: 1 })).toMatchObject({ other: { untouched: [1, 2, 3] } });
    expect((raw!.meta as { big: unknown }).big).toBeInstanceOf(Long);
    const unmatched = await failure(items.updateOne({ _id: 1 }, { $set: { 'lines.$.qty': 0 } }));
    expect(unmatched.code).toBe(2); // BadValue: no array condition for the `$`
    expect(await items.findOne({ _id: 1 })).toMatchObject({ lines: [{ qty: 1 }, { qty: 5 }] });
  });

  /** A document as the server answers it (through BSON, numbers promoted). */
  async function roundTrip(doc: AnyDoc): Promise<AnyDoc> {
    const scratch = harness.client.db('shared').collection<AnyDoc>('scratch');
    await scratch.deleteMany({});
    await scratch.insertOne(doc);
    return (await scratch.findOne({ _id: doc._id }))!;
  }
});

import { Double, Long, ObjectId, type Collection, type Db, type Document } from 'mongodb';
import { failure, startHarness, type AnyDoc, type Harness } from './helpers';

// A write whose filter has an `_id` equality beside other conditions reads that one document by its key and tests
// it against the rest of the filter without planning the read (`findWriteMatches`, src/ops/match.ts); plain
// equalities compare index keys instead of compiling the filter. A hinted write, and a find, are planned: both are
// the reference here, so every case is answered by both paths.

let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('id_point_writes');
});
afterAll(() => harness.stop());

const when = new Date(Date.UTC(2026, 10, 28));
const oid = new ObjectId('0123456789abcdef01234567');
const DOCS: Document[] = [
  { _id: 1, v: 3, s: 'a', b: true, d: when, o: oid, n: null },
  { _id: 2, v: Long.fromNumber(3), s: 'A', arr: [1, 3], doc: { x: 1 } },
  { _id: 3, v: new Double(3), s: ['a', 'b'], nested: { v: 3 } },
  { _id: 'text', v: '3', s: 'a' },
  { _id: oid, v: 3 },
  { _id: when, v: [[3]] },
];

/** Filters with an `_id` point and other conditions: plain equalities and everything else. */
const FILTERS: Document[] = DOCS.flatMap(({ _id }) => [
  { _id },
  { _id, v: 3 },
  { _id, v: '3' },
  { _id, v: 3, s: 'a' },
  { _id, s: 'a' },
  { _id, s: 'b' },
  { _id, b: true },
  { _id, b: 1 },
  { _id, d: when },
  { _id, d: when.getTime() },
  { _id, o: oid },
  { _id, arr: 3 },
  { _id, arr: [1, 3] },
  { _id, doc: { x: 1 } },
  { _id, n: null },
  { _id, missing: null },
  { _id, missing: 3 },
  { _id, 'nested.v': 3 },
  { _id, v: { $gte: 3 } },
  { _id, $or: [{ v: 4 }, { s: 'a' }] },
  { _id, v: 3, $comment: 'kept' },
]);

async function fresh(name: string): Promise<Collection<AnyDoc>> {
  const coll = db.collection<AnyDoc>(name);
  await coll.drop().catch(() => undefined);
  await coll.insertMany(DOCS.map((doc) => ({ ...doc })));
  return coll;
}

async function idIndexAccesses(coll: Collection<AnyDoc>): Promise<number> {
  const [stats] = await coll.aggregate([{ $indexStats: {} }, { $match: { name: '_id_' } }]).toArray();
  return Number((stats as { accesses: { ops: unknown } }).accesses.ops);
}

describe('writes by `_id` with other conditions', () => {
  it('update the documents a planned read and a hinted write match', async () => {
    const coll = await fresh('updates');
    for (const [at, filter] of FILTERS.entries()) {
      const found = await coll.find(filter).toArray();
      const hinted = await coll.updateOne(filter, { $set: { hinted: at } }, { hint: { _id: 1 } });
      const point = await coll.updateOne(filter, { $set: { point: at } });
      expect({ filter, matched: point.matchedCount }).toEqual({ filter, matched: found.length });
      expect({ filter, matched: point.matchedCount }).toEqual({ filter, matched: hinted.matchedCount });
    }
  });

  it('answer findOneAndUpdate and delete as the planned read finds', async () => {
    const coll = await fresh('answers');
    for (const filter of FILTERS) {
      const [found] = await coll.find(filter).toArray();
      const answered = await coll.findOneAndUpdate(filter, { $set: { seen: true } }, { returnDocument: 'before' });
      expect({ filter, answered: answered?._id }).toEqual({ filter, answered: found?._id });
    }
    for (const filter of FILTERS) {
      const copy = await fresh('deletes');
      const found = await copy.find(filter).toArray();
      const { deletedCount } = await copy.deleteOne(filter);
      expect({ filter, deletedCount }).toEqual({ filter, deletedCount: found.length });
    }
  });

  it('compare strings under the command collation, and refuse an invalid filter without the document', async () => {
    const coll = await fresh('collated');
    const collation = { locale: 'en', strength: 2 };
    expect((await coll.updateOne({ _id: 2, s: 'a' }, { $set: { c: 1 } }, { collation })).matchedCount).toBe(1);
    expect((await coll.updateOne({ _id: 2, s: 'a' }, { $set: { c: 1 } })).matchedCount).toBe(0);
    const invalid = { _id: 'absent', v: { $noSuchOperator: 1 } };
    const planned = await failure(coll.find(invalid).toArray());
    const point = await failure(coll.updateOne(invalid, { $set: { c: 1 } }));
    expect(point.code).toBe(planned.code);
  });

  it("count the `_id` index's use as the planned write does ($indexStats)", async () => {
    const coll = await fresh('accesses');
    const before = await idIndexAccesses(coll);
    await coll.updateOne({ _id: 1, v: 3 }, { $set: { c: 1 } });
    const afterPoint = await idIndexAccesses(coll);
    await coll.updateOne({ _id: 1, v: 3 }, { $set: { c: 2 } }, { hint: { _id: 1 } });
    expect(afterPoint - before).toBe(1);
    expect((await idIndexAccesses(coll)) - afterPoint).toBe(1);
  });
});

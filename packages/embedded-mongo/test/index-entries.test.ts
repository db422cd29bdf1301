import { join } from 'node:path';
import type { Collection, Db, Document, Filter } from 'mongodb';
import { startHarness, tempDir, type AnyDoc, type Harness } from './helpers';

/**
 * Indexes large enough to span many blocks of entries (an index keeps its entries in blocks of at most 128, split
 * when full and merged when emptied): ranges read forward and backward must return what a collection scan
 * returns after inserts that split blocks, deletes that merge them, a restart that loads them anew, and a lazy
 * cursor must go on from where it was while the blocks change under it.
 */

/** xorshift32: a small deterministic PRNG. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const random = generator(41);
const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
const WORDS = ['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen'];

function randomDoc(id: number): AnyDoc {
  return {
    _id: id,
    n: pick([() => Math.floor(random() * 300), () => random() * 300, () => pick(WORDS), () => null])(),
    tags: Array.from({ length: Math.floor(random() * 4) }, () => pick(WORDS)),
    w: pick(WORDS),
  };
}

const INDEXES: Array<Record<string, 1 | -1>> = [
  { n: 1, _id: 1 },
  { w: -1, n: 1 },
  { tags: 1, n: -1 },
];

/** A sort matching an index, or its reverse, with `_id` last so that the order is total. */
const SORTS: Document[] = [
  { n: 1, _id: 1 },
  { n: -1, _id: -1 },
  { w: -1, n: 1, _id: 1 },
  { w: 1, n: -1, _id: -1 },
];

function randomFilter(): Filter<AnyDoc> {
  const low = Math.floor(random() * 300);
  return pick<Filter<AnyDoc>>([
    { n: { $gte: low, $lt: low + 40 } },
    { n: { $gt: pick(WORDS) } },
    { w: pick(WORDS), n: { $lte: low } },
    { w: { $in: [pick(WORDS), pick(WORDS)] } },
    { tags: pick(WORDS) },
    { tags: { $in: [pick(WORDS), pick(WORDS)] }, n: { $gte: low } },
    { n: null },
  ]);
}

const ids = (docs: AnyDoc[]): unknown[] => docs.map((doc) => doc._id);

/** Random filters and sorts through every index: each gives what a collection scan gives. */
async function expectScansAgree(db: Db, items: Collection<AnyDoc>): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const query = randomFilter();
    const sort = pick(SORTS);
    const hint = pick(INDEXES);
    const planned = await items.find(query, { sort, hint }).toArray();
    const scanned = await items.find(query, { sort, hint: { $natural: 1 } }).toArray();
    const context = JSON.stringify({ query, sort, hint });
    expect([context, ids(planned)]).toEqual([context, ids(scanned)]);
    // A count over exact bounds is taken from the blocks' lengths (and ids, for the multikey index) at once.
    const counted = await items.countDocuments(query, { hint });
    expect([context, counted]).toEqual([context, scanned.length]);
    const command = await db.command({ count: items.collectionName, query, hint });
    expect([context, command.n]).toEqual([context, scanned.length]);
  }
}

describe('indexes of many blocks', () => {
  let harness: Harness;
  let items: Collection<AnyDoc>;

  beforeAll(async () => {
    harness = await startHarness();
    items = harness.client.db('index_entries').collection<AnyDoc>('items');
    for (const key of INDEXES) await items.createIndex(key);
  });
  afterAll(() => harness.stop());

  it('read what a collection scan reads after inserts, updates and deletes', async () => {
    const order = Array.from({ length: 3000 }, (_, i) => i).sort(() => random() - 0.5);
    for (let start = 0; start < order.length; start += 500) {
      await items.insertMany(order.slice(start, start + 500).map(randomDoc));
    }
    expect(await items.countDocuments({ n: { $exists: true } }, { hint: { n: 1, _id: 1 } })).toBe(3000);
    await expectScansAgree(harness.client.db('index_entries'), items);

    const removed = order.filter(() => random() < 0.85);
    await items.deleteMany({ _id: { $in: removed } });
    await items.updateMany({ _id: { $in: order.filter(() => random() < 0.1) } }, { $set: { n: 'moved' } });
    expect(await items.countDocuments({}, { hint: { n: 1, _id: 1 } })).toBe(3000 - removed.length);
    await expectScansAgree(harness.client.db('index_entries'), items);
  });

  it('go on from where a lazy cursor was while blocks split and merge under it', async () => {
    const cursors = harness.client.db('index_entries').collection<AnyDoc>('cursors');
    await cursors.createIndex({ n: 1, _id: 1 });
    await cursors.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: i, n: i })));
    for (const direction of [1, -1] as const) {
      const sort = { n: direction };
      const cursor = cursors.find({ n: { $gte: 0 } }, { sort, batchSize: 50, hint: { n: 1, _id: 1 } });
      const read: number[] = [];
      for (let batch = 0; batch < 40; batch++) {
        for (let i = 0; i < 50; i++) read.push(((await cursor.next()) as AnyDoc)._id as number);
        // 200 entries around the cursor's place, gone again before it reads on: its block splits, then merges.
        const around = Array.from({ length: 200 }, (_, i) => ({
          _id: `new${i}`,
          n: (read.at(-1) as number) - 1 + i / 100,
        }));
        await cursors.insertMany(around);
        await cursors.deleteMany({ _id: { $in: around.map((doc) => doc._id) } });
      }
      expect(await cursor.next()).toBeNull();
      const expected = Array.from({ length: 2000 }, (_, i) => i);
      expect(read).toEqual(direction > 0 ? expected : expected.reverse());
    }
  });
});

describe('indexes of many blocks after a restart', () => {
  it('are loaded from the documents and read as before', async () => {
    const dir = tempDir();
    const dbPath = join(dir.path, 'data');
    try {
      const first = await startHarness({ dbPath });
      const stored = first.client.db('index_entries').collection<AnyDoc>('items');
      for (const key of INDEXES) await stored.createIndex(key);
      await stored.insertMany(Array.from({ length: 2500 }, (_, i) => randomDoc(i)));
      await stored.deleteMany({ _id: { $in: Array.from({ length: 2500 }, (_, i) => i).filter(() => random() < 0.3) } });
      await first.stop();

      const second = await startHarness({ dbPath });
      try {
        const items = second.client.db('index_entries').collection<AnyDoc>('items');
        await expectScansAgree(second.client.db('index_entries'), items);
        await items.insertMany(Array.from({ length: 1000 }, (_, i) => randomDoc(10_000 + i)));
        await expectScansAgree(second.client.db('index_entries'), items);
      } finally {
        await second.stop();
      }
    } finally {
      dir.remove();
    }
  });
});

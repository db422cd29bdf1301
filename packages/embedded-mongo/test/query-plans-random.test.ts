import { Long, ObjectId, type Collection, type Db, type Document, type Filter, type FindOptions } from 'mongodb';
import { startHarness, type AnyDoc, type Harness } from './helpers';

/**
 * Randomized (seeded, so reproducible) filters and sorts over documents with mixed types, missing fields,
 * nulls and arrays: whatever plan the planner picks must return what a collection scan returns.
 */
let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('query_plans_random');
});
afterAll(() => harness.stop());

/** mulberry32: a small deterministic PRNG. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = generator(12);
const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
const STRINGS = ['a', 'ab', 'abc', 'ab.c', 'b', 'B', 'ba', ''];

function scalar(): unknown {
  const integer = (): number => Math.floor(random() * 20) - 5;
  return pick([integer, () => random() * 10, () => pick(STRINGS), () => null, () => pick([true, false])])();
}

function value(): unknown {
  const roll = random();
  if (roll < 0.1) return undefined;
  if (roll < 0.2) return [scalar(), scalar()];
  if (roll < 0.25) return [{ s: scalar() }, { s: scalar() }];
  return scalar();
}

function randomDoc(id: number): AnyDoc {
  const doc: AnyDoc = { _id: id, u: id };
  for (const field of ['a', 'b', 'c']) {
    const v = value();
    if (v !== undefined) doc[field] = v;
  }
  return doc;
}

function condition(): unknown {
  const v = scalar();
  return pick([
    () => v,
    () => ({ $in: [scalar(), scalar()] }),
    () => ({ $gt: v }),
    () => ({ $lte: v }),
    () => ({ $gte: v, $lt: scalar() }),
    () => new RegExp(`^${pick(['a', 'ab', 'ab\\.', 'b'])}`),
    () => ({ $exists: pick([true, false]) }),
    () => ({ $elemMatch: { $gte: v } }),
    () => ({ $ne: v }),
    () => ({ $all: [v, scalar()] }),
    () => ({ $type: pick(['string', 'number', 'null', 'bool']) }),
  ])();
}

function filter(): Filter<AnyDoc> {
  const clause = (): Document => ({ [pick(['a', 'b', 'c', 'a.s'])]: condition() });
  const roll = random();
  if (roll < 0.2) return { $or: [clause(), clause()] };
  if (roll < 0.6) return { ...clause(), ...clause() };
  return clause();
}

/** Sorts on `u` (unique) so that ties cannot order results differently. */
const OPTIONS: FindOptions[] = [
  {},
  { sort: { u: -1 }, limit: 5 },
  { sort: { u: 1 }, skip: 3, limit: 10 },
  { sort: { c: 1, u: -1 } },
];
const byId = (x: AnyDoc, y: AnyDoc): number => Number(x._id) - Number(y._id);

describe('random filters over mixed data', () => {
  let items: Collection<AnyDoc>;

  beforeAll(async () => {
    items = db.collection<AnyDoc>('random');
    await items.insertMany(Array.from({ length: 400 }, (_, i) => randomDoc(i)));
    await items.createIndex({ a: 1 });
    await items.createIndex({ b: -1, a: 1 });
    await items.createIndex({ c: 1, u: -1 });
    await items.createIndex({ 'a.s': 1 });
    await items.createIndex({ u: 1 });
  });

  it('return what a collection scan returns, with and without sort and limit', async () => {
    for (let i = 0; i < 300; i++) {
      const query = filter();
      const options = pick(OPTIONS);
      const planned = await items.find(query, options).toArray();
      const scanned = await items.find(query, { ...options, hint: { $natural: 1 } }).toArray();
      // Without a sort the order is the plan's own: compare the sets.
      const ordered = (docs: AnyDoc[]): AnyDoc[] => (options.sort ? docs : [...docs].sort(byId));
      const ids = (docs: AnyDoc[]): unknown[] => ordered(docs).map((doc) => doc._id);
      const context = JSON.stringify({ query, options });
      expect([context, ids(planned)]).toEqual([context, ids(scanned)]);
    }
  });

  it('counts what a collection scan counts', async () => {
    for (let i = 0; i < 100; i++) {
      const query = filter();
      const planned = await db.command({ count: 'random', query });
      const scanned = await db.command({ count: 'random', query, hint: { $natural: 1 } });
      expect([JSON.stringify(query), planned.n]).toEqual([JSON.stringify(query), scanned.n]);
    }
  });
});

/**
 * Filters that pin `_id` (an equality, `$eq` or `$in`, beside other conditions) are read through the `_id` index
 * without the general planner: reads, counts and writes with them must do what a collection scan does.
 */
describe('random filters on _id over mixed _id types', () => {
  const next = generator(23);
  const choose = <T>(values: T[]): T => values[Math.floor(next() * values.length)];
  const OBJECT_ID = new ObjectId('65a1b2c3d4e5f60718293a4b');
  const DATE = new Date(Date.UTC(2026, 10, 28));
  /** Stored `_id`s: numbers, strings differing in case only, an ObjectId, a date (not null: the driver replaces it). */
  const STORED_IDS: unknown[] = [
    ...Array.from({ length: 40 }, (_, i) => i),
    2.5,
    -1,
    'a',
    'A',
    'ab',
    'b',
    OBJECT_ID,
    DATE,
  ];
  /** Looked-up values: stored ones, equal numbers of other types, and absent ones. */
  const idValue = (): unknown =>
    choose([
      () => choose(STORED_IDS),
      () => Long.fromNumber(Math.floor(next() * 40)),
      () => Math.floor(next() * 40) + 0.0,
      () => choose([99, 'zz', 'B', null, new ObjectId('65a1b2c3d4e5f60718293a4c'), new Date(0)]),
    ])();
  const idCondition = (): unknown =>
    choose([
      () => idValue(),
      () => ({ $eq: idValue() }),
      () => ({ $in: Array.from({ length: Math.floor(next() * 6) }, idValue) }),
      () => ({ $in: [idValue(), idValue(), idValue()], $nin: [idValue()] }),
    ])();
  const other = (): Document =>
    choose([
      () => ({}),
      () => ({ a: Math.floor(next() * 4) }),
      () => ({ a: { $gte: Math.floor(next() * 4) }, b: choose(['x', 'y', 'X']) }),
      () => ({ $or: [{ a: 1 }, { b: 'y' }] }),
      () => ({ $and: [{ _id: idCondition() }] }),
      () => ({ b: { $exists: choose([true, false]) } }),
    ])();
  const idFilter = (): Document => ({ _id: idCondition(), ...other() });
  const OPTIONS: Document[] = [
    {},
    { sort: { _id: 1 } },
    { sort: { _id: -1 }, limit: 3 },
    { sort: { u: 1 }, skip: 1, limit: 4 },
    { sort: { a: -1, u: 1 } },
    { skip: 2 },
    { collation: { locale: 'en', strength: 2 }, sort: { u: -1 } },
  ];

  const docAt = (id: unknown, u: number): Document => {
    const doc: Document = { _id: id, u };
    if (next() < 0.8) doc.a = Math.floor(next() * 4);
    if (next() < 0.7) doc.b = choose(['x', 'y', 'X', ['x', 'y']]);
    return doc;
  };
  const docs = STORED_IDS.map((id, u) => docAt(id, u));
  /** Two equal collections with the same indexes: writes go unhinted to one and over a collection scan to the other. */
  let planned: Collection<Document>;
  let scanned: Collection<Document>;

  beforeAll(async () => {
    planned = db.collection('by_id_planned');
    scanned = db.collection('by_id_scanned');
    for (const collection of [planned, scanned]) {
      await collection.insertMany(docs.map((doc) => ({ ...doc })));
      await collection.createIndex({ a: 1 });
      await collection.createIndex({ b: 1, u: 1 });
    }
  });

  const sortedById = (found: Document[]): unknown[] => found.map((doc) => doc.u).sort((x, y) => x - y);

  it('find and count return what a collection scan returns', async () => {
    for (let i = 0; i < 300; i++) {
      const query = idFilter();
      const options = choose(OPTIONS);
      const found = await planned.find(query, options).toArray();
      const expected = await planned.find(query, { ...options, hint: { $natural: 1 } }).toArray();
      const context = JSON.stringify({ query, options });
      const shown = (list: Document[]): unknown[] => (options.sort ? list.map((doc) => doc.u) : sortedById(list));
      expect([context, shown(found)]).toEqual([context, shown(expected)]);
      const count = await db.command({ count: 'by_id_planned', query });
      const scannedCount = await db.command({ count: 'by_id_planned', query, hint: { $natural: 1 } });
      expect([context, count.n]).toEqual([context, scannedCount.n]);
    }
  });

  type Write = (collection: Collection<Document>, query: Document, hint: Document) => Promise<unknown>;
  /** Writes of every match, or of the first in a sort on the unique `u`: any `_id` condition decides one outcome. */
  const anyMatches: Write[] = [
    (c, q, hint) => c.updateMany(q, { $set: { b: 'z' } }, hint),
    (c, q, hint) => c.deleteMany(q, hint),
    (c, q, hint) => c.findOneAndUpdate(q, { $inc: { u: 100 } }, { ...hint, sort: { u: -1 }, returnDocument: 'after' }),
  ];
  /** Writes of one match in no given order: the filter pins one `_id` so that the match is the same in both. */
  const oneMatch: Write[] = [
    (c, q, hint) => c.updateOne(q, { $inc: { a: 1 } }, hint),
    (c, q, hint) => c.deleteOne(q, hint),
    (c, q, hint) => c.findOneAndUpdate(q, { $set: { a: 9 } }, { ...hint, returnDocument: 'before' }),
    (c, q, hint) => c.findOneAndDelete(q, hint),
    (c, q, hint) => c.findOneAndReplace(q, { u: -1, a: 0 }, { ...hint, returnDocument: 'after' }),
  ];

  it('updates, deletes and findAndModify change what they change over a collection scan', async () => {
    for (let i = 0; i < 150; i++) {
      const single = next() < 0.5;
      const write = choose(single ? oneMatch : anyMatches);
      const query = single ? { _id: choose([idValue, () => ({ $eq: idValue() })])(), ...other() } : idFilter();
      const context = JSON.stringify({ query, single, write: (single ? oneMatch : anyMatches).indexOf(write) });
      const result = await write(planned, query, {});
      const expected = await write(scanned, query, { hint: { $natural: 1 } });
      expect([context, result]).toEqual([context, expected]);
      const contents = (collection: Collection<Document>) => collection.find({}, { sort: { _id: 1 } }).toArray();
      expect([context, await contents(planned)]).toEqual([context, await contents(scanned)]);
      if (i % 50 === 49) {
        // Deleted documents come back, so that later writes still find something.
        for (const collection of [planned, scanned]) {
          await collection.deleteMany({});
          await collection.insertMany(docs.map((doc) => ({ ...doc })));
        }
      }
    }
  });
});

import type { Collection, Db, Document, Filter, FindOptions } from 'mongodb';
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

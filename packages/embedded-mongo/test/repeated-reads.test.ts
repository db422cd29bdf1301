import { Binary, Decimal128, ObjectId, UUID, type Collection, type Db } from 'mongodb';
import { failure, startHarness, type Harness } from './helpers';

/*
 * The shortcuts of a repeated read (a listing page with its counters, bench README `dbpage`), each against the path
 * it skips: `_id: {$in}` points read by key against the planned read of the `_id` index (`hint: '_id_'`); a pipeline
 * of plain `$unionWith` stages against the same stages run by mingo (a `{$match: {}}` before them); a repeated
 * filter's kept solution and compiled filter against a collection scan, after the index's array state, the indexes
 * or the values change (and a query's only candidate, kept alike). A union of a `$match` and a `$count` (a page's total) against mingo's `$count`.
 */
let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('repeated_reads');
});
afterAll(() => harness.stop());

/** Documents and filters with `_id`s of every type, which the driver's typed schema (ObjectId `_id`s) refuses. */
type Any = any;

async function fresh(name: string, docs: Any[]): Promise<Collection<Any>> {
  const coll = db.collection<Any>(name);
  await coll.drop().catch(() => undefined);
  if (docs.length) await coll.insertMany(docs.map((doc) => ({ ...doc })));
  return coll;
}

async function idIndexAccesses(coll: Collection<Any>): Promise<number> {
  const [stats] = await coll.aggregate([{ $indexStats: {} }, { $match: { name: '_id_' } }]).toArray();
  return Number((stats as { accesses: { ops: unknown } }).accesses.ops);
}

const OID = [new ObjectId('65a1b2c3d4e5f60718293a4b'), new ObjectId('65a1b2c3d4e5f60718293a4a')];
const WHEN = [new Date(Date.UTC(2026, 0, 2)), new Date(Date.UTC(2025, 5, 1))];
const UUIDS = [new UUID('2a3b4c5d-6e7f-4081-92a3-b4c5d6e7f809'), new UUID('0a3b4c5d-6e7f-4081-92a3-b4c5d6e7f809')];

/** `_id`s of every type a key look-up answers, mixed in one collection. */
const MIXED: Any[] = [
  { _id: 'b', v: 1 },
  { _id: 'a', v: 2 },
  { _id: 'B', v: 3 },
  { _id: 3, v: 4 },
  { _id: -1.5, v: 5 },
  { _id: 0, v: 6 },
  { _id: 2 ** 40, v: 7 },
  { _id: OID[0], v: 8 },
  { _id: OID[1], v: 9 },
  { _id: WHEN[0], v: 10 },
  { _id: WHEN[1], v: 11 },
  { _id: true, v: 12 },
  { _id: false, v: 13 },
  { _id: UUIDS[0], v: 14 },
  { _id: UUIDS[1], v: 15 },
  { _id: new Binary(Buffer.from([1, 2]), 0x80), v: 16 },
  { _id: 'counter|x', count: 5 },
];

/** `$in` lists: out of order, repeated (1 and 1.0, -0 and 0), missing values, every type, empty. */
const IN_LISTS: unknown[][] = [
  ['counter|x', 'b', 'a'],
  ['a', 'zzz', 'a', 'B', 'b'],
  [3, 0, -0, 3.0, -1.5, 2 ** 40, 99],
  [true, 'a', OID[0], 3, WHEN[1], false, OID[1], WHEN[0]],
  [UUIDS[0], new Binary(Buffer.from([1, 2]), 0x80), UUIDS[1], 'b', 0],
  [],
];

describe('`_id: {$in}` points read by key', () => {
  let coll: Collection<Any>;
  beforeAll(async () => {
    coll = await fresh('mixed', MIXED);
  });

  it.each(IN_LISTS.map((list, at) => [at, list]))(
    'returns what the planned read returns, in its order (list %i)',
    async (_, list) => {
      const filter = { _id: { $in: list } };
      const planned = await coll.find(filter, { hint: '_id_' }).toArray();
      expect(await coll.find(filter).toArray()).toEqual(planned);
      expect(await coll.aggregate([{ $match: filter }]).toArray()).toEqual(planned);
      const projection = { v: 1, _id: 0 };
      expect(await coll.find(filter, { projection }).toArray()).toEqual(
        await coll.find(filter, { projection, hint: '_id_' }).toArray(),
      );
      expect(await coll.find(filter, { limit: 2 }).toArray()).toEqual(planned.slice(0, 2));
      expect(await coll.find(filter, { batchSize: 1 }).toArray()).toEqual(planned);
    },
  );

  it('counts one use of the `_id` index per read, as the planned read does ($indexStats)', async () => {
    const before = await idIndexAccesses(coll);
    await coll.find({ _id: { $in: ['a', 'b'] } }).toArray();
    expect(await idIndexAccesses(coll)).toBe(before + 1);
    await coll.find({ _id: { $in: ['a', 'b'] } }, { hint: '_id_' }).toArray();
    expect(await idIndexAccesses(coll)).toBe(before + 2);
  });

  it('explains the planned read: FETCH without a filter over an IXSCAN of `_id_` seeking each point', async () => {
    const explained = await coll.find({ _id: { $in: ['b', 'a', 'a'] } }).explain('executionStats');
    const plan = explained.queryPlanner.winningPlan;
    expect(plan.stage).toBe('FETCH');
    expect(plan.filter).toBeUndefined();
    expect(plan.inputStage).toMatchObject({
      stage: 'IXSCAN',
      indexName: '_id_',
      indexBounds: { _id: ['["a", "a"]', '["b", "b"]'] },
    });
    expect(explained.executionStats.nReturned).toBe(2);
  });

  it('reads a document removed or inserted between batches as the planned read does', async () => {
    const target = await fresh('between', [{ _id: 1 }, { _id: 2 }, { _id: 3 }, { _id: 4 }]);
    const read = async (hint?: string) => {
      const cursor = target.find({ _id: { $in: [4, 1, 3, 2, 5] } }, { batchSize: 2, ...(hint ? { hint } : {}) });
      const first = [await cursor.next(), await cursor.next()];
      await target.deleteOne({ _id: 3 });
      await target.insertOne({ _id: 5 });
      const rest = await cursor.toArray();
      await target.insertOne({ _id: 3 });
      await target.deleteOne({ _id: 5 });
      return [...first, ...rest];
    };
    expect(await read()).toEqual(await read('_id_'));
  });

  it('leaves other `_id` conditions to the planner (a collation, a regex, null, a range)', async () => {
    for (const filter of [{ _id: { $in: ['A', 'b'] } }, { _id: { $in: [/^a/, 'b'] } }, { _id: { $in: [null, 'b'] } }]) {
      expect(await coll.find(filter).toArray()).toEqual(await coll.find(filter, { hint: '_id_' }).toArray());
    }
    const collated = await coll
      .find({ _id: { $in: ['A', 'b'] } }, { collation: { locale: 'en', strength: 2 } })
      .toArray();
    expect(collated.map((doc) => doc._id).sort()).toEqual(['B', 'a', 'b']);
  });
});

describe('a pipeline of plain `$unionWith` stages', () => {
  let page: Collection<Any>;
  beforeAll(async () => {
    page = await fresh('entries', [
      { _id: 'e1', scope: 's', name: 'b', price: 3, extra: [1] },
      { _id: 'e2', scope: 's', name: 'a', price: 1 },
      { _id: 'e3', scope: 't', name: 'c', price: 2 },
    ]);
    await page.createIndex({ scope: 1, name: 1, _id: 1 });
    await fresh('counters', [
      { _id: 'listed|s', count: 2 },
      { _id: 'listed|t', count: 1 },
      { _id: 'revision', token: new ObjectId('65a1b2c3d4e5f60718293a4b') },
    ]);
    await db.createCollection('bigCounters', { viewOn: 'counters', pipeline: [{ $match: { count: { $gt: 1 } } }] });
  });

  const head = [{ $match: { scope: 's' } }, { $sort: { name: 1, _id: 1 } }, { $limit: 20 }, { $project: { name: 1 } }];
  const UNIONS: Any[][] = [
    [{ $unionWith: { coll: 'counters', pipeline: [{ $match: { _id: { $in: ['listed|s', 'revision'] } } }] } }],
    [{ $unionWith: 'counters' }],
    [{ $unionWith: { coll: 'counters' } }],
    [{ $unionWith: { coll: 'counters', pipeline: [] } }],
    [{ $unionWith: { coll: 'missing', pipeline: [{ $match: { _id: 'x' } }] } }],
    [{ $unionWith: { coll: 'bigCounters', pipeline: [{ $match: { _id: { $ne: 'x' } } }] } }],
    [{ $unionWith: { coll: 'counters', pipeline: [{ $match: { $expr: { $eq: ['$count', '$$wanted'] } } }] } }],
    [{ $unionWith: { coll: 'counters', pipeline: [{ $match: { count: { $gte: 1 } } }] } }, { $unionWith: 'entries' }],
    [{ $unionWith: { coll: 'entries', pipeline: [{ $match: { scope: 's' } }, { $count: 'total' }] } }],
    [{ $unionWith: { coll: 'entries', pipeline: [{ $match: { scope: 'none' } }, { $count: 'total' }] } }],
    [{ $unionWith: { coll: 'bigCounters', pipeline: [{ $match: {} }, { $count: 'n' }] } }],
    [{ $unionWith: { coll: 'missing', pipeline: [{ $match: {} }, { $count: 'n' }] } }],
  ];

  it.each(UNIONS.map((unions, at) => [at, unions]))(
    'returns what mingo returns for the same stages (%i)',
    async (_, unions) => {
      const options = { let: { wanted: 1 } };
      const mingo = await page.aggregate([...head, { $match: {} }, ...unions], options).toArray();
      expect(mingo.length).toBeGreaterThan(0);
      expect(await page.aggregate([...head, ...unions], options).toArray()).toEqual(mingo);
      expect(await page.aggregate([{ $match: { scope: 't' } }, ...unions], options).toArray()).toEqual(
        await page.aggregate([{ $match: { scope: 't' } }, { $match: {} }, ...unions], options).toArray(),
      );
    },
  );

  it("counts a `$match` and `$count` as mingo's `$count` does, each document once through a multikey index", async () => {
    const tagged = await fresh('tagged', [
      { _id: 1, tags: ['a', 'b'], n: 1 },
      { _id: 2, tags: ['b'], n: 2 },
      { _id: 3, tags: 'c', n: 3 },
      { _id: 4, n: 4 },
    ]);
    await tagged.createIndex({ tags: 1 });
    const filters: Any[] = [
      { tags: { $in: ['a', 'b'] } },
      { tags: { $in: ['a', 'b'] }, n: { $gt: 1 } },
      { tags: 'z' },
      {},
      { n: { $gte: 2 } },
    ];
    for (const filter of filters) {
      const union = (pipeline: Any[]) => [{ $match: { _id: 'none' } }, { $unionWith: { coll: 'tagged', pipeline } }];
      const counted = await tagged.aggregate(union([{ $match: filter }, { $count: 'total' }])).toArray();
      const byMingo = await tagged
        .aggregate(union([{ $match: filter }, { $match: {} }, { $count: 'total' }]))
        .toArray();
      expect(counted).toEqual(byMingo);
      expect(counted).toEqual(
        (await tagged.countDocuments(filter)) > 0 ? [{ total: await tagged.countDocuments(filter) }] : [],
      );
    }
  });

  it('refuses a bad specification as mingo does', async () => {
    for (const union of [
      { coll: 'counters', other: 1 },
      { coll: 'counters', pipeline: [{ $match: { $bad: 1 } }] },
      { coll: 'counters', pipeline: [{ $match: {} }, { $count: '$n' }] },
      { coll: 'counters', pipeline: [{ $match: {} }, { $count: 'a.b' }] },
      { coll: 'counters', pipeline: [{ $match: {} }, { $count: '' }] },
      { coll: 'counters', pipeline: [{ $match: { $bad: 1 } }, { $count: 'n' }] },
    ]) {
      const direct = await failure(page.aggregate([{ $match: {} }, { $unionWith: union }]).toArray());
      const throughMingo = await failure(
        page.aggregate([{ $match: {} }, { $match: {} }, { $unionWith: union }]).toArray(),
      );
      expect(direct).toEqual(throughMingo);
    }
  });
});

describe("a repeated filter's kept solution and compiled filter", () => {
  /** Results of a find, and of the same find over a collection scan. */
  async function withScan(coll: Collection<Any>, filter: Any, options: Any = {}): Promise<Any[][]> {
    const planned = await coll.find(filter, options).toArray();
    const scanned = await coll.find(filter, { ...options, hint: { $natural: 1 } }).toArray();
    const byId = (a: Any, b: Any) => String(a._id).localeCompare(String(b._id));
    return options.sort ? [planned, scanned] : [planned.sort(byId), scanned.sort(byId)];
  }

  it('plans a repeated query as the first time: same plan, same results', async () => {
    const coll = await fresh(
      'repeat',
      Array.from({ length: 300 }, (_, i) => ({ _id: i, a: i % 7, b: i % 11, c: i })),
    );
    await coll.createIndex({ a: 1, c: 1 });
    await coll.createIndex({ b: 1, c: 1 });
    const filter = { a: 3, b: { $in: [2, 4] } };
    const options: Any = { sort: { c: -1 }, limit: 5 };
    const explains: Any[] = [];
    for (let run = 0; run < 4; run++) {
      const [planned, scanned] = await withScan(coll, filter, options);
      expect(planned).toEqual(scanned);
      explains.push((await coll.find(filter, options).explain('queryPlanner')).queryPlanner);
    }
    expect(explains[2].winningPlan).toEqual(explains[1].winningPlan);
    expect(explains[3]).toEqual(explains[2]);
    expect(explains[3].rejectedPlans.length).toBeGreaterThan(0);
  });

  it('bounds a field again when it starts holding arrays while the indexes were multikey already', async () => {
    const coll = await fresh(
      'arrays',
      Array.from({ length: 200 }, (_, i) => ({ _id: i, a: i % 5, b: [i, i + 1], c: [i % 3, 9] })),
    );
    await coll.createIndex({ a: 1, b: 1 });
    await coll.createIndex({ a: 1, c: 1 });
    const filter = { a: { $gt: 1, $lt: 3 } };
    for (let run = 0; run < 3; run++) {
      const [planned, scanned] = await withScan(coll, filter);
      expect(planned).toEqual(scanned);
    }
    // Matches through two elements (5 > 1, 0 < 3) though neither lies between 1 and 3.
    await coll.insertOne({ _id: 'arrays', a: [0, 5], b: [1], c: [1] });
    const [planned, scanned] = await withScan(coll, filter);
    expect(scanned.map((doc) => doc._id)).toContain('arrays');
    expect(planned).toEqual(scanned);
    // A key nested in an array (an array key) widens the bounds again.
    await coll.insertOne({ _id: 'nested', a: [[2]], b: [2], c: [2] });
    const [plannedNested, scannedNested] = await withScan(coll, { a: [2] });
    expect(plannedNested).toEqual(scannedNested);
  });

  it('keeps the only candidate of a repeated query and count until a key field starts holding arrays', async () => {
    const coll = await fresh(
      'single',
      Array.from({ length: 200 }, (_, i) => ({ _id: i, a: i % 5, b: [i, i + 1] })),
    );
    await coll.createIndex({ a: 1, b: 1 });
    const filter = { a: { $gt: 1, $lt: 3 } };
    const counted = async (): Promise<[number, Any]> => [
      await coll.countDocuments(filter),
      await db.command({ count: 'single', query: filter }),
    ];
    const scannedCount = async () => coll.countDocuments(filter, { hint: { $natural: 1 } });
    for (let run = 0; run < 3; run++) {
      const [planned, scanned] = await withScan(coll, filter);
      expect(planned).toEqual(scanned);
      const [documents, command] = await counted();
      expect([documents, command.n]).toEqual([await scannedCount(), await scannedCount()]);
    }
    // Matches through two elements (5 > 1, 0 < 3) though neither lies between 1 and 3: the bounds must widen.
    await coll.insertOne({ _id: 'arrays', a: [0, 5], b: [1] });
    const [planned, scanned] = await withScan(coll, filter);
    expect(scanned.map((doc) => doc._id)).toContain('arrays');
    expect(planned).toEqual(scanned);
    const [documents, command] = await counted();
    expect([documents, command.n]).toEqual([await scannedCount(), await scannedCount()]);
    const explained = await coll.find(filter).explain('queryPlanner');
    expect(explained.queryPlanner.rejectedPlans).toEqual([]);
  });

  it('plans again when an index is dropped or created', async () => {
    const coll = await fresh(
      'indexes',
      Array.from({ length: 300 }, (_, i) => ({ _id: i, a: i % 7, b: i % 11 })),
    );
    await coll.createIndex({ a: 1 });
    await coll.createIndex({ b: 1 });
    const filter = { a: 3, b: 4 };
    for (let run = 0; run < 3; run++) await coll.find(filter).toArray();
    const used = (await coll.find(filter).explain('queryPlanner')).queryPlanner.winningPlan.inputStage.indexName;
    await coll.dropIndex(used as string);
    const remaining = used === 'a_1' ? 'b_1' : 'a_1';
    const [afterDrop, scanned] = await withScan(coll, filter);
    expect(afterDrop).toEqual(scanned);
    expect((await coll.find(filter).explain('queryPlanner')).queryPlanner.winningPlan.inputStage.indexName).toBe(
      remaining,
    );
    await coll.createIndex({ a: 1, b: 1 });
    for (let run = 0; run < 3; run++) expect((await withScan(coll, filter))[0]).toEqual(scanned);
    const explained = await coll.find(filter).explain('executionStats');
    expect(explained.queryPlanner.winningPlan.inputStage.indexName).toBe('a_1_b_1');
    expect(explained.executionStats.totalDocsExamined).toBe(scanned.length);
  });

  it('tests documents the same way however often the filter was compiled before', async () => {
    const coll = await fresh('compiled', [
      { _id: 1, v: 1 },
      { _id: 2, v: 2 },
      { _id: 3, s: 'abc' },
    ]);
    for (let run = 0; run < 2; run++) expect((await coll.find({ v: 1 }).toArray()).map((doc) => doc._id)).toEqual([1]);
    // A decimal equal to 1, after the filter was compiled with none seen by the server's thread.
    await coll.insertOne({ _id: 4, v: Decimal128.fromString('1.0') });
    expect((await coll.find({ v: 1 }).toArray()).map((doc) => doc._id)).toEqual([1, 4]);
    // Values alike as keys but not as filters.
    expect(await coll.find({ v: 2 }).toArray()).toEqual([{ _id: 2, v: 2 }]);
    expect(await coll.find({ v: '2' }).toArray()).toEqual([]);
    for (let run = 0; run < 3; run++) {
      expect((await coll.find({ s: /b/g }).toArray()).map((doc) => doc._id)).toEqual([3]);
      expect((await coll.find({ s: { $regex: 'b', $options: 'i' } }).toArray()).map((doc) => doc._id)).toEqual([3]);
    }
  });

  it('still refuses a filter it compiled before with other values', async () => {
    const coll = await fresh('invalid', [{ _id: 1, v: 1 }]);
    await coll.find({ v: { $eq: 1 } }).toArray();
    expect(await failure(coll.find({ v: { $eqq: 1 } }).toArray())).toEqual(
      await failure(coll.find({ v: { $eqq: 1 } }, { hint: { $natural: 1 } }).toArray()),
    );
  });
});

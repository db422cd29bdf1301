import { Long, type Collection, type Db, type Document, type Filter, type Sort } from 'mongodb';
import { startHarness, type AnyDoc, type Harness } from './helpers';

/**
 * The planner's choices, checked through `explain` (stages, index, bounds, keys and documents examined),
 * and its results checked against a collection scan (`hint: {$natural: 1}`) of the same data.
 */
let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('query_plans');
});
afterAll(() => harness.stop());

type Plan = Document;

/** The stages of a plan tree, depth first. */
function stages(plan: Plan): Plan[] {
  const inputs = [plan.inputStage, ...(plan.inputStages ?? [])].filter(Boolean) as Plan[];
  return [plan, ...inputs.flatMap(stages)];
}

const stageNames = (plan: Plan): string[] => stages(plan).map((stage) => stage.stage as string);
const stage = (plan: Plan, name: string): Plan | undefined => stages(plan).find((found) => found.stage === name);
/** The IXSCAN of an explain's winning plan. */
const ixscan = (explained: Document): Plan | undefined => stage(explained.queryPlanner.winningPlan, 'IXSCAN');

type Items = Collection<AnyDoc>;

async function explainFind(collection: Items, filter: Filter<AnyDoc>, options: Document = {}): Promise<Document> {
  return collection.find(filter, options).explain('executionStats');
}

/** Results of a find, and of the same find over a collection scan. */
async function withScan(collection: Items, filter: Filter<AnyDoc>, options: Document = {}): Promise<AnyDoc[][]> {
  const planned = await collection.find(filter, options).toArray();
  const scanned = await collection.find(filter, { ...options, hint: { $natural: 1 } }).toArray();
  return [planned, scanned];
}

const ids = (docs: AnyDoc[]): string[] => docs.map((doc) => String(doc._id)).sort();

describe('compound index: equality prefix then range', () => {
  let items: Collection<AnyDoc>;

  beforeAll(async () => {
    items = db.collection<AnyDoc>('compound');
    await items.insertMany(Array.from({ length: 1000 }, (_, i) => ({ _id: i, a: i % 10, b: i, c: `c${i % 7}` })));
    await items.createIndex({ a: 1, b: -1 });
  });

  it('scans only the keys of the equality and the range, with exact bounds and no re-check', async () => {
    const plan = await explainFind(items, { a: 3, b: { $gte: 100, $lt: 200 } });
    const scan = ixscan(plan);
    expect(scan).toMatchObject({ indexName: 'a_1_b_-1', keyPattern: { a: 1, b: -1 }, isMultiKey: false });
    expect(scan?.direction).toBe('forward');
    expect(scan?.indexBounds).toEqual({ a: ['[3, 3]'], b: ['(200, 100]'] });
    expect(stage(plan.queryPlanner.winningPlan, 'FETCH')?.filter).toBeUndefined();
    expect(plan.executionStats).toMatchObject({ nReturned: 10, totalKeysExamined: 10, totalDocsExamined: 10 });
    expect(plan.executionStats.executionStages).toMatchObject({
      stage: 'FETCH',
      nReturned: 10,
      docsExamined: 10,
      isEOF: 1,
      inputStage: { stage: 'IXSCAN', nReturned: 10, keysExamined: 10, seeks: 1, indexName: 'a_1_b_-1' },
    });
    const [planned, scanned] = await withScan(items, { a: 3, b: { $gte: 100, $lt: 200 } });
    expect(ids(planned)).toEqual(ids(scanned));
  });

  it('serves `$in` as point intervals', async () => {
    const filter = { a: { $in: [7, 1] }, b: { $lt: 50 } };
    const plan = await explainFind(items, filter);
    expect(ixscan(plan)?.indexBounds).toEqual({ a: ['[1, 1]', '[7, 7]'], b: ['(50, -inf.0]'] });
    expect(plan.executionStats).toMatchObject({ nReturned: 10, totalKeysExamined: 10, totalDocsExamined: 10 });
    const [planned, scanned] = await withScan(items, filter);
    expect(ids(planned)).toEqual(ids(scanned));
  });

  it('checks a condition on a later field key by key and re-checks other fields on the documents', async () => {
    const filter = { b: { $lt: 30 }, c: 'c1' };
    const plan = await explainFind(items, filter, { hint: 'a_1_b_-1' });
    expect(ixscan(plan)?.indexBounds).toEqual({ a: ['[MinKey, MaxKey]'], b: ['(30, -inf.0]'] });
    expect(stage(plan.queryPlanner.winningPlan, 'FETCH')?.filter).toEqual(filter);
    expect(plan.executionStats).toMatchObject({ totalKeysExamined: 1000, totalDocsExamined: 30 });
    const [planned, scanned] = await withScan(items, filter);
    expect(ids(planned)).toEqual(ids(scanned));
  });

  it('returns the sort from the index after the equality prefix, stopping at the limit', async () => {
    const plan = await explainFind(items, { a: 3 }, { sort: { b: -1 }, limit: 5 });
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual(['LIMIT', 'FETCH', 'IXSCAN']);
    expect(plan.executionStats).toMatchObject({ nReturned: 5, totalKeysExamined: 5, totalDocsExamined: 5 });
    const found = await items.find({ a: 3 }, { sort: { b: -1 }, limit: 5 }).toArray();
    expect(found.map((doc) => doc.b)).toEqual([993, 983, 973, 963, 953]);
  });

  it('scans backward for the opposite order, with skip', async () => {
    const plan = await explainFind(items, { a: 3 }, { sort: { b: 1 }, skip: 2, limit: 3 });
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual(['LIMIT', 'SKIP', 'FETCH', 'IXSCAN']);
    const bounds = { a: ['[3, 3]'], b: ['[MinKey, MaxKey]'] };
    expect(ixscan(plan)).toMatchObject({ direction: 'backward', indexBounds: bounds });
    expect(plan.executionStats).toMatchObject({ nReturned: 3, totalKeysExamined: 5 });
    const found = await items.find({ a: 3 }, { sort: { b: 1 }, skip: 2, limit: 3 }).toArray();
    expect(found.map((doc) => doc.b)).toEqual([23, 33, 43]);
  });

  it('merges one sorted scan per `$in` point (SORT_MERGE) instead of sorting in memory', async () => {
    const plan = await explainFind(items, { a: { $in: [2, 5, 8] } }, { sort: { b: -1 }, limit: 4 });
    const names = stageNames(plan.queryPlanner.winningPlan);
    expect(names).toEqual(['LIMIT', 'FETCH', 'SORT_MERGE', 'IXSCAN', 'IXSCAN', 'IXSCAN']);
    const merge = stage(plan.queryPlanner.winningPlan, 'SORT_MERGE');
    expect(merge?.inputStages.map((scan: Plan) => scan.indexBounds.a)).toEqual([['[2, 2]'], ['[5, 5]'], ['[8, 8]']]);
    // The merge holds the next key of each scan: 3 heads, then one key per result returned.
    expect(plan.executionStats).toMatchObject({ nReturned: 4, totalDocsExamined: 4, totalKeysExamined: 7 });
    const [planned, scanned] = await withScan(items, { a: { $in: [2, 5, 8] } }, { sort: { b: -1 }, limit: 4 });
    expect(planned.map((doc) => doc.b)).toEqual([998, 995, 992, 988]);
    expect(planned).toEqual(scanned);
  });

  it("reads an aggregate's $sort, $skip, $limit and field $project after its $match as a find, then the rest", async () => {
    const pipeline = [
      { $match: { a: 3 } },
      { $sort: { b: 1 } },
      { $skip: 2 },
      { $limit: 3 },
      { $project: { b: 1, c: 1 } },
      { $unionWith: { coll: 'compound', pipeline: [{ $match: { _id: 7 } }] } },
    ];
    const plan = await items.aggregate(pipeline).explain('executionStats');
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual(['LIMIT', 'SKIP', 'FETCH', 'IXSCAN']);
    expect(plan.executionStats).toMatchObject({ nReturned: 3, totalKeysExamined: 5, totalDocsExamined: 5 });
    const found = await items.aggregate(pipeline).toArray();
    expect(found).toEqual([
      ...(await items.find({ a: 3 }, { sort: { b: 1 }, skip: 2, limit: 3, projection: { b: 1, c: 1 } }).toArray()),
      { _id: 7, a: 7, b: 7, c: 'c0' },
    ]);
    // A $limit before the $skip is read by the find, the $skip after it by the pipeline.
    const limitFirst = items.aggregate([{ $match: { a: 3 } }, { $sort: { b: -1 } }, { $limit: 3 }, { $skip: 1 }]);
    expect((await limitFirst.toArray()).map((doc) => doc.b)).toEqual([983, 973]);
  });

  it('sorts in memory, keeping only the top k, when no index provides the order', async () => {
    const plan = await explainFind(items, { a: 3 }, { sort: { c: 1, b: 1 }, skip: 1, limit: 4 });
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual(['SKIP', 'SORT', 'FETCH', 'IXSCAN']);
    expect(stage(plan.queryPlanner.winningPlan, 'SORT')).toMatchObject({ sortPattern: { c: 1, b: 1 }, limitAmount: 5 });
    expect(plan.executionStats.nReturned).toBe(4);
    const [planned, scanned] = await withScan(items, { a: 3 }, { sort: { c: 1, b: 1 }, skip: 1, limit: 4 });
    expect(planned).toEqual(scanned);
  });
});

describe('choosing among candidate plans', () => {
  let items: Collection<AnyDoc>;

  beforeAll(async () => {
    items = db.collection<AnyDoc>('choices');
    await items.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: i, x: i % 2, y: i, z: i % 100 })));
    await items.createIndex({ x: 1 });
    await items.createIndex({ y: 1 });
  });

  it('runs a trial of each candidate, lists the rejected ones and caches the winner per query shape', async () => {
    const plan = await explainFind(items, { x: 1, y: { $lt: 40 } });
    expect(ixscan(plan)?.indexName).toBe('y_1');
    const rejected = plan.queryPlanner.rejectedPlans.map((other: Plan) => stage(other, 'IXSCAN')?.indexName);
    expect(rejected).toEqual(['x_1']);
    const all = await items.find({ x: 1, y: { $lt: 40 } }).explain('allPlansExecution');
    const trials = all.executionStats.allPlansExecution.map((trial: Plan) => stage(trial, 'IXSCAN')?.indexName);
    expect(trials).toEqual(['y_1', 'x_1']);
    expect(plan.executionStats).toMatchObject({ nReturned: 20, totalKeysExamined: 40, totalDocsExamined: 40 });
    const again = await explainFind(items, { x: 0, y: { $lt: 10 } });
    expect(again.queryPlanner.planCacheUsed).toBe(true);
    expect(again.queryPlanner.queryHash).toMatch(/^[0-9A-F]{8}$/);
    expect(again.queryPlanner.queryHash).toBe(plan.queryPlanner.queryHash);
    expect((await explainFind(items, { x: 0 })).queryPlanner.queryHash).not.toBe(plan.queryPlanner.queryHash);
    expect(ixscan(again)?.indexName).toBe('y_1');
    // The cached index's solution is built alone; explain still finds the other candidates.
    expect(again.queryPlanner.rejectedPlans.map((other: Plan) => stage(other, 'IXSCAN')?.indexName)).toEqual(['x_1']);
    const hinted = await items
      .find({ x: 0, y: { $lt: 10 } })
      .hint('x_1')
      .explain('executionStats');
    expect(hinted.queryPlanner.planCacheUsed).toBe(false);
    expect(ixscan(hinted)?.indexName).toBe('x_1');
  });

  it('shapes a filter nested 100 arrays deep in one pass, and tells array shapes apart', async () => {
    const nested = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : [nested(depth - 1, leaf)]);
    // The shape once doubled in length per level: 27 levels ran out of string length (fuzzing found it).
    expect(await items.find({ x: nested(100, 1) }).toArray()).toEqual([]);
    const hashOf = async (filter: Filter<AnyDoc>) => (await explainFind(items, filter)).queryPlanner.queryHash;
    expect(await hashOf({ x: nested(3, 1) })).toBe(await hashOf({ x: nested(3, 2) }));
    expect(await hashOf({ x: nested(3, 1) })).not.toBe(await hashOf({ x: nested(3, 'a') }));
    expect(await hashOf({ x: nested(3, 1) })).not.toBe(await hashOf({ x: nested(2, 1) }));
  });

  it('forgets cached plans when the indexes change', async () => {
    await explainFind(items, { x: 1, z: 5, y: { $gt: 10 } });
    expect((await explainFind(items, { x: 1, z: 5, y: { $gt: 10 } })).queryPlanner.planCacheUsed).toBe(true);
    await items.createIndex({ z: 1 });
    const plan = await explainFind(items, { x: 1, z: 5, y: { $gt: 10 } });
    expect(plan.queryPlanner.planCacheUsed).toBe(false);
    expect(ixscan(plan)?.indexName).toBe('z_1');
    await db.command({ collMod: 'choices', index: { name: 'z_1', hidden: true } });
    const hidden = await explainFind(items, { x: 1, z: 5, y: { $gt: 10 } });
    expect(hidden.queryPlanner.planCacheUsed).toBe(false);
    const considered = [hidden.queryPlanner.winningPlan, ...hidden.queryPlanner.rejectedPlans].flatMap(stages);
    expect(considered.map((scan) => scan.indexName)).not.toContain('z_1');
  });

  it('forgets cached plans when an index is dropped or becomes multikey, and after 1000 writes', async () => {
    const forgetful = db.collection<AnyDoc>('forgetful');
    await forgetful.insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: i, x: i % 2, y: i, w: i % 5 })));
    await forgetful.createIndex({ x: 1 });
    await forgetful.createIndex({ y: 1 });
    await forgetful.createIndex({ w: 1 });
    const shape = { x: 1, y: { $gt: 10 }, w: 3 };
    const cacheUsed = async (): Promise<boolean> => (await explainFind(forgetful, shape)).queryPlanner.planCacheUsed;
    await cacheUsed();
    expect(await cacheUsed()).toBe(true);
    await forgetful.dropIndex('w_1');
    expect(await cacheUsed()).toBe(false);
    expect(await cacheUsed()).toBe(true);
    await forgetful.insertOne({ _id: 'multi', x: [1, 2], y: 0 });
    expect(await cacheUsed()).toBe(false);
    expect(await cacheUsed()).toBe(true);
    await forgetful.insertMany(Array.from({ length: 1001 }, (_, i) => ({ _id: `w${i}`, x: 5, y: -1 })));
    expect(await cacheUsed()).toBe(false);
  });

  it('re-plans when the cached plan takes more than 10 times the works of its trial', async () => {
    const replanned = db.collection<AnyDoc>('replanned');
    await replanned.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: i, p: i, q: i % 1000 })));
    await replanned.createIndex({ p: 1 });
    await replanned.createIndex({ q: 1 });
    const first = await explainFind(replanned, { p: { $lt: 10 }, q: { $gte: 0 } });
    expect(ixscan(first)?.indexName).toBe('p_1');
    const second = await explainFind(replanned, { p: { $lt: 1e9 }, q: { $gte: 999 } });
    expect(second.queryPlanner.planCacheUsed).toBe(false);
    expect(ixscan(second)?.indexName).toBe('q_1');
    expect(second.executionStats).toMatchObject({ nReturned: 2, totalKeysExamined: 2 });
  });

  it('uses the hinted index even when another one is better', async () => {
    const plan = await explainFind(items, { x: 1, y: 7 }, { hint: { x: 1 } });
    expect(ixscan(plan)?.indexName).toBe('x_1');
    expect(plan.queryPlanner.rejectedPlans).toEqual([]);
    expect(plan.executionStats).toMatchObject({ nReturned: 1, totalKeysExamined: 1000, totalDocsExamined: 1000 });
  });
});

describe('$or as a union of index scans', () => {
  let items: Collection<AnyDoc>;

  beforeAll(async () => {
    items = db.collection<AnyDoc>('ors');
    await items.insertMany(Array.from({ length: 500 }, (_, i) => ({ _id: i, p: i, q: `q${i % 50}`, r: i % 3 })));
    await items.createIndex({ p: 1 });
    await items.createIndex({ q: 1 });
  });

  it('scans each branch through its index and drops documents found twice', async () => {
    const filter = { $or: [{ p: { $lt: 20 } }, { q: 'q5' }] };
    const plan = await explainFind(items, filter);
    const or = stage(plan.queryPlanner.winningPlan, 'OR');
    expect(or?.inputStages.map((scan: Plan) => scan.indexName)).toEqual(['p_1', 'q_1']);
    expect(plan.executionStats).toMatchObject({ nReturned: 29, totalKeysExamined: 30, totalDocsExamined: 29 });
    expect(stage(plan.executionStats.executionStages, 'OR')).toMatchObject({ dupsTested: 30, dupsDropped: 1 });
    const [planned, scanned] = await withScan(items, filter);
    expect(ids(planned)).toEqual(ids(scanned));
  });

  it('bounds each branch with the conditions beside the $or', async () => {
    const pairs = db.collection<AnyDoc>('or_pairs');
    await pairs.insertMany(Array.from({ length: 600 }, (_, i) => ({ _id: i, a: i % 2, b: i % 100, c: i % 150 })));
    await pairs.createIndex({ a: 1, b: 1 });
    await pairs.createIndex({ a: 1, c: 1 });
    const filter = { a: 1, $or: [{ b: 7 }, { c: 9 }] };
    const plan = await explainFind(pairs, filter);
    const scans = stage(plan.queryPlanner.winningPlan, 'OR')?.inputStages as Plan[];
    expect(scans.map((scan) => scan.indexBounds)).toEqual([
      { a: ['[1, 1]'], b: ['[7, 7]'] },
      { a: ['[1, 1]'], c: ['[9, 9]'] },
    ]);
    expect(plan.executionStats).toMatchObject({ nReturned: 10, totalKeysExamined: 10, totalDocsExamined: 10 });
    const [planned, scanned] = await withScan(pairs, filter);
    expect(ids(planned)).toEqual(ids(scanned));
  });

  it('breaks a tie of capped branch estimates for the index bounding more fields', async () => {
    // Each branch holds more keys than the planner counts (1,000), under the scope-only index and under
    // the one with equality on the multikey field alike: the tighter one must win, as MongoDB's planner would.
    const tagged = db.collection<AnyDoc>('or_capped');
    const tags = (i: number): string[] => [['x', 'w'], ['y'], ['w']][i % 3];
    await tagged.insertMany(Array.from({ length: 3300 }, (_, i) => ({ _id: i, s: 'a', t: tags(i) })));
    await tagged.createIndex({ s: 1 });
    await tagged.createIndex({ s: 1, t: 1 });
    const filter = { s: 'a', $or: [{ t: 'x' }, { t: 'y' }] };
    const plan = await explainFind(tagged, filter);
    const scans = (stage(plan.queryPlanner.winningPlan, 'OR')?.inputStages ?? []) as Plan[];
    expect(scans.map((scan) => scan.indexName)).toEqual(['s_1_t_1', 's_1_t_1']);
    expect(plan.executionStats).toMatchObject({ nReturned: 2200, totalKeysExamined: 2200, totalDocsExamined: 2200 });
    const [planned, scanned] = await withScan(tagged, filter);
    expect(ids(planned)).toEqual(ids(scanned));
  });

  it('scans the collection when a branch has no usable index', async () => {
    const filter = { $or: [{ p: 3 }, { r: 1 }] };
    const plan = await explainFind(items, filter);
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual(['COLLSCAN']);
    const [planned, scanned] = await withScan(items, filter);
    expect(planned.length).toBe(168);
    expect(ids(planned)).toEqual(ids(scanned));
  });
});

describe('regex prefixes, multikey fields, missing fields, null and mixed types', () => {
  let items: Collection<AnyDoc>;
  const values: unknown[] = [1, 2.5, -3, 'ab.c', 'ab.cd', 'ab-c', 'abc', 'Ab.c', 'b', null, [1, 5], [2, 3], []];
  values.push(['ab.c', 7], new Date(5), true, { k: 1 }, NaN, Infinity, -Infinity);

  beforeAll(async () => {
    items = db.collection<AnyDoc>('mixed');
    const docs: AnyDoc[] = values.map((v, i) => ({ _id: i, v, w: i }));
    docs.push(
      { _id: 100, w: 100 },
      {
        _id: 101,
        v: [
          { s: 1, t: 'x' },
          { s: 4, t: 'y' },
        ],
        w: 101,
      },
    );
    await items.insertMany(docs);
    await items.createIndex({ v: 1 });
    await items.createIndex({ 'v.s': 1 });
  });

  const filters: Filter<AnyDoc>[] = [
    { v: /^ab\.c/ },
    { v: /^ab.c/ },
    { v: /^ab\.c/i },
    { v: { $regex: '^a[b]', $options: '' } },
    { v: /b/ },
    { v: { $in: [/^ab/, 1] } },
    { v: null },
    { v: { $exists: false } },
    { v: { $exists: true } },
    { v: { $gt: 2 } },
    { v: { $gt: 2, $lt: 4 } },
    { v: { $elemMatch: { $gt: 2, $lt: 4 } } },
    { v: { $gte: 'ab' } },
    { v: { $lt: new Date(10) } },
    { v: 5 },
    { v: { $in: [null, 'b'] } },
    { 'v.s': { $gte: 4 } },
    { v: { $elemMatch: { s: 1, t: 'x' } } },
    { v: { $ne: 1 } },
    { v: { $all: [2, 3] } },
    { v: { $all: ['ab.c', 7] } },
    { v: { $type: 'string' } },
    { v: { $type: 'number' } },
    { v: { $type: 'null' } },
    { v: { $type: 'date' } },
    { v: NaN },
    { v: { $lt: Infinity } },
  ];

  it.each(filters.map((filter) => [filter]))('finds what a collection scan finds: %p', async (filter) => {
    const [planned, scanned] = await withScan(items, filter);
    expect(ids(planned)).toEqual(ids(scanned));
  });

  it('turns an anchored, case-sensitive regex into a string range (escaped characters kept literal)', async () => {
    const plan = await explainFind(items, { v: /^ab\.c/ });
    expect(ixscan(plan)?.indexBounds).toEqual({ v: ['["ab.c", "ab.d")'] });
    expect(stage(plan.queryPlanner.winningPlan, 'FETCH')?.filter).toBeDefined();
    expect(plan.executionStats).toMatchObject({ nReturned: 3, totalKeysExamined: 3, totalDocsExamined: 3 });
    // Case-insensitive: every string is a candidate, as MongoDB bounds it.
    const caseless = await explainFind(items, { v: /^ab\.c/i });
    expect(ixscan(caseless)?.indexBounds).toEqual({ v: ['["", {})'] });
  });

  it('uses only one side of a range on a multikey field, and both inside $elemMatch', async () => {
    const plan = await explainFind(items, { v: { $gt: 2, $lt: 4 } });
    expect(ixscan(plan)).toMatchObject({ isMultiKey: true, multiKeyPaths: { v: ['v'] } });
    expect(ixscan(plan)?.indexBounds).toEqual({ v: ['(2, inf.0]'] });
    const elem = await explainFind(items, { v: { $elemMatch: { $gt: 2, $lt: 4 } } });
    expect(ixscan(elem)?.indexBounds).toEqual({ v: ['(2, 4)'] });
  });

  it('sorts by the fields after a multikey field bounded to one value, and in memory for a range on it', async () => {
    const tagged = db.collection<AnyDoc>('tagged');
    const docs = Array.from({ length: 40 }, (_, i) => ({
      _id: i,
      tags: i % 2 ? ['x', 'y', 'x'] : ['y'],
      name: 40 - i,
    }));
    await tagged.insertMany(docs);
    await tagged.createIndex({ tags: 1, name: 1 });
    const options = { sort: { name: 1 }, limit: 3 };
    const plan = await explainFind(tagged, { tags: { $all: ['x', 'y'] } }, options);
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual(['LIMIT', 'FETCH', 'IXSCAN']);
    expect(plan.executionStats).toMatchObject({ nReturned: 3, totalKeysExamined: 3 });
    const [planned, scanned] = await withScan(tagged, { tags: { $all: ['x', 'y'] } }, options);
    expect(planned.map((doc) => doc.name)).toEqual([1, 3, 5]);
    expect(planned).toEqual(scanned);
    // A range on the multikey field meets a document once per tag in it: no order from the index.
    const ranged = await explainFind(tagged, { tags: { $gte: 'x' } }, options);
    expect(stageNames(ranged.queryPlanner.winningPlan)).toContain('SORT');
    const [rangedPlanned, rangedScanned] = await withScan(tagged, { tags: { $gte: 'x' } }, options);
    expect(rangedPlanned).toEqual(rangedScanned);
    // A sort by the multikey field itself orders by an element of each array, not by the key scanned.
    const byTags = { sort: { tags: -1, name: 1 }, limit: 3 };
    expect(stageNames((await explainFind(tagged, { tags: 'x' }, byTags)).queryPlanner.winningPlan)).toContain('SORT');
  });

  it('bounds $all by its first value and $type by the type bracket', async () => {
    expect(ixscan(await explainFind(items, { v: { $all: [2, 3] } }))?.indexBounds).toEqual({ v: ['[2, 2]'] });
    expect(ixscan(await explainFind(items, { v: { $type: 'string' } }))?.indexBounds).toEqual({ v: ['["", {})'] });
  });

  it('looks up null as the null key (missing fields and nulls), re-checking the documents', async () => {
    const plan = await explainFind(items, { v: null });
    expect(ixscan(plan)?.indexBounds).toEqual({ v: ['[null, null]'] });
    expect(plan.executionStats.nReturned).toBe(2);
  });
});

describe('infinities and NaN in one document', () => {
  // They all once shared one key hash, so an index kept only the first of them for a document.
  it('are separate keys of a non-unique index: each finds the document through it', async () => {
    const items = db.collection<AnyDoc>('infinities');
    await items.insertOne({ _id: 1, v: [Infinity, -Infinity, NaN] });
    await items.createIndex({ v: 1 });
    for (const filter of [{ v: Infinity }, { v: -Infinity }, { v: NaN }, { v: { $lt: 0 } }]) {
      expect(ids(await items.find(filter, { hint: { v: 1 } }).toArray())).toEqual(['1']);
    }
    const plan = await explainFind(items, { v: { $type: 'number' } }, { hint: { v: 1 } });
    expect(plan.executionStats.totalKeysExamined).toBe(3);
  });
});

describe('arrays nested in arrays', () => {
  it('are index keys of their own type, always scanned along with the bounds', async () => {
    const items = db.collection<AnyDoc>('nested');
    await items.insertMany([
      { _id: 1, v: [[2, 9]] },
      { _id: 2, v: [3, [4]] },
      { _id: 3, v: 3 },
      { _id: 4, v: [] },
    ]);
    await items.createIndex({ v: 1 });
    const filters: Filter<AnyDoc>[] = [
      { v: { $gt: 2 } },
      { v: 3 },
      { v: [2, 9] },
      { v: { $elemMatch: { $gt: 8 } } },
      { v: { $elemMatch: { $elemMatch: { $gt: 8 } } } },
      { v: { $in: [[4], 9] } },
    ];
    for (const filter of filters) {
      const [planned, scanned] = await withScan(items, filter);
      expect([filter, ids(planned)]).toEqual([filter, ids(scanned)]);
    }
    const plan = await explainFind(items, { v: { $gt: 2 } });
    expect(ixscan(plan)?.indexBounds).toEqual({ v: ['(2, inf.0]', '[[], BinData(0, ))'] });
  });
});

describe('descending, sparse, partial and collated indexes', () => {
  let items: Collection<AnyDoc>;

  beforeAll(async () => {
    items = db.collection<AnyDoc>('kinds');
    const sparse = (i: number): AnyDoc => (i % 2 ? { s: i } : {});
    const docs = Array.from({ length: 100 }, (_, i) => ({ _id: i, d: i, ...sparse(i), t: i % 4, n: `n${i}` }));
    await items.insertMany(docs);
    await items.createIndex({ d: -1 });
    await items.createIndex({ s: 1 }, { sparse: true });
    await items.createIndex({ t: 1 }, { partialFilterExpression: { t: { $gte: 2 } } });
    await items.createIndex({ n: 1 }, { collation: { locale: 'en', strength: 2 } });
  });

  it('walks a descending index in its order for a descending sort and backward for an ascending one', async () => {
    const plan = await explainFind(items, { d: { $gt: 90 } }, { sort: { d: 1 } });
    expect(ixscan(plan)).toMatchObject({ direction: 'backward', indexBounds: { d: ['(90, inf.0]'] } });
    expect(stage(plan.queryPlanner.winningPlan, 'SORT')).toBeUndefined();
    const ascending = await items.find({ d: { $gt: 95 } }, { sort: { d: 1 } }).toArray();
    expect(ascending.map((doc) => doc.d)).toEqual([96, 97, 98, 99]);
    const inIndexOrder = await items.find({ d: { $gt: 95 } }).toArray();
    expect(inIndexOrder.map((doc) => doc.d)).toEqual([99, 98, 97, 96]);
  });

  it('uses a sparse index only when the query requires the field', async () => {
    expect(ixscan(await explainFind(items, { s: 5 }))?.indexName).toBe('s_1');
    expect(stageNames((await explainFind(items, { s: null })).queryPlanner.winningPlan)).toEqual(['COLLSCAN']);
    expect(await items.countDocuments({ s: null })).toBe(50);
  });

  it('uses a partial index only when the query implies its filter', async () => {
    expect(ixscan(await explainFind(items, { t: 3 }))?.indexName).toBe('t_1');
    expect(stageNames((await explainFind(items, { t: 1 })).queryPlanner.winningPlan)).toEqual(['COLLSCAN']);
    expect((await items.find({ t: 1 }).toArray()).length).toBe(25);
  });

  it('does not seek strings in a collated index, but scans it for other types', async () => {
    expect(stageNames((await explainFind(items, { n: 'N5' })).queryPlanner.winningPlan)).toEqual(['COLLSCAN']);
    expect(await items.find({ n: 'N5' }, { collation: { locale: 'en', strength: 2 } }).toArray()).toHaveLength(1);
    const numeric = ixscan(await explainFind(items, { n: 5 }));
    expect(numeric).toMatchObject({ indexName: 'n_1', indexBounds: { n: ['[5, 5]'] } });
    // A collated query seeks numbers, but sorts in memory (index order is not the collation's).
    const collated = await explainFind(items, { d: { $gt: 90 } }, { collation: { locale: 'en' }, sort: { d: -1 } });
    expect(stageNames(collated.queryPlanner.winningPlan)).toEqual(['SORT', 'FETCH', 'IXSCAN']);
  });
});

describe('count from the index', () => {
  let items: Collection<AnyDoc>;

  beforeAll(async () => {
    items = db.collection<AnyDoc>('counted');
    await items.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, g: i % 3, h: i })));
    await items.createIndex({ g: 1, h: 1 });
  });

  it('counts keys without fetching documents when the bounds are exact', async () => {
    const command = { count: 'counted', query: { g: 1, h: { $gte: 30 } } };
    expect((await db.command(command)).n).toBe(90);
    const plan = await db.command({ explain: command, verbosity: 'executionStats' });
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual(['COUNT', 'COUNT_SCAN']);
    expect(plan.executionStats).toMatchObject({ totalKeysExamined: 90, totalDocsExamined: 0 });
    expect((await db.command({ ...command, skip: 10, limit: 50 })).n).toBe(50);
  });

  it('counts keys of a descending index and of several ranges of a multikey one, each document once', async () => {
    const tagged = db.collection<AnyDoc>('counted_tags');
    const tagsOf = (i: number): string[] => [`t${i % 4}`, `t${i % 6}`];
    await tagged.insertMany(Array.from({ length: 120 }, (_, i) => ({ _id: i, h: i, tags: tagsOf(i) })));
    await tagged.createIndex({ h: -1 });
    await tagged.createIndex({ tags: 1 });
    const byScan = async (query: AnyDoc) =>
      (await db.command({ count: 'counted_tags', query, hint: { $natural: 1 } })).n as number;
    for (const query of [{ h: { $gt: 10, $lte: 50 } }, { h: { $lt: 7 } }, { h: { $gte: 200 } }]) {
      expect((await db.command({ count: 'counted_tags', query })).n).toBe(await byScan(query));
    }
    const query = { tags: { $in: ['t1', 't3', 't5'] } };
    const command = { count: 'counted_tags', query };
    expect((await db.command(command)).n).toBe(await byScan(query));
    const plan = await db.command({ explain: command, verbosity: 'executionStats' });
    const scan = stage(plan.executionStats.executionStages, 'IXSCAN');
    // One key per distinct wanted tag of each document: documents holding two of them are dropped once.
    const wanted = new Set(query.tags.$in);
    const keys = Array.from({ length: 120 }, (_, i) => new Set(tagsOf(i).filter((tag) => wanted.has(tag))).size);
    const keyCount = keys.reduce((sum, n) => sum + n, 0);
    const documents = keys.filter((n) => n > 0).length;
    expect(scan).toMatchObject({ keysExamined: keyCount, advanced: documents, dupsDropped: keyCount - documents });
    expect(scan).toMatchObject({ works: keyCount + 1, isEOF: 1 });
  });

  it('fetches and re-checks when another condition remains', async () => {
    const command = { count: 'counted', query: { g: 1, h: { $gte: 30 }, k: { $exists: false } } };
    expect((await db.command(command)).n).toBe(90);
    const plan = await db.command({ explain: command, verbosity: 'executionStats' });
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual(['COUNT', 'FETCH', 'IXSCAN']);
    expect(plan.executionStats).toMatchObject({ totalKeysExamined: 90, totalDocsExamined: 90 });
  });
});

describe('a multikey field before the sort fields (a search key, then a price)', () => {
  let items: Collection<AnyDoc>;
  const tagsOf = (i: number): string[] => [`t${i % 4}`, `t${i % 6}`, `u${i % 5}`];

  beforeAll(async () => {
    items = db.collection<AnyDoc>('keyed');
    const docs = Array.from({ length: 240 }, (_, i) => ({ _id: i, s: i % 2, tags: tagsOf(i), p: (i * 37) % 101 }));
    await items.insertMany(docs);
    await items.createIndex({ s: 1, tags: 1, p: 1, _id: 1 });
  });

  const filter = { s: 1, tags: { $in: ['t1', 't3', 'u2'] } };

  it('merges one scan per `$in` point in the sort order (each document once), stopping after the page', async () => {
    const options = { sort: { p: 1, _id: 1 }, limit: 5 };
    const plan = await explainFind(items, filter, options);
    const names = stageNames(plan.queryPlanner.winningPlan);
    expect(names).toEqual(['LIMIT', 'FETCH', 'SORT_MERGE', 'IXSCAN', 'IXSCAN', 'IXSCAN']);
    // Exact bounds: an equality of scalars is exactly the entries in its points, so nothing is re-checked.
    expect(stage(plan.queryPlanner.winningPlan, 'FETCH')?.filter).toBeUndefined();
    expect(plan.executionStats.totalDocsExamined).toBe(5);
    for (const sort of [
      { p: 1, _id: 1 },
      { p: -1, _id: -1 },
    ]) {
      const [planned, scanned] = await withScan(items, filter, { sort, skip: 3, limit: 20 });
      expect(planned).toEqual(scanned);
    }
  });

  it('merges the scans read backward for the reverse sort, stopping after the page', async () => {
    const options = { sort: { p: -1, _id: -1 }, limit: 5 };
    const plan = await explainFind(items, filter, options);
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual([
      'LIMIT',
      'FETCH',
      'SORT_MERGE',
      'IXSCAN',
      'IXSCAN',
      'IXSCAN',
    ]);
    const merge = stage(plan.queryPlanner.winningPlan, 'SORT_MERGE');
    expect(merge?.inputStages.map((scan: Plan) => scan.direction)).toEqual(['backward', 'backward', 'backward']);
    expect(plan.executionStats.totalDocsExamined).toBe(5);
    const [planned, scanned] = await withScan(items, filter, options);
    expect(planned).toEqual(scanned);
  });

  it('counts each matching document once from the keys alone', async () => {
    const command = { count: 'keyed', query: filter };
    const expected = await items.countDocuments(filter, { hint: { $natural: 1 } });
    expect((await db.command(command)).n).toBe(expected);
    const plan = await db.command({ explain: command, verbosity: 'executionStats' });
    expect(stageNames(plan.queryPlanner.winningPlan)).toEqual(['COUNT', 'IXSCAN']);
    expect(plan.executionStats.totalDocsExamined).toBe(0);
  });

  it('re-checks two conditions on the multikey field, and sorts in memory on a multikey sort field', async () => {
    const both = { s: 1, tags: { $all: ['t1', 'u2'] } };
    const plan = await explainFind(items, both, { sort: { p: 1, _id: 1 } });
    expect(stage(plan.queryPlanner.winningPlan, 'FETCH')?.filter).toBeDefined();
    const [planned, scanned] = await withScan(items, both, { sort: { p: 1, _id: 1 } });
    expect(planned).toEqual(scanned);
    const byTags = await explainFind(items, { s: 1 }, { sort: { tags: 1 } });
    expect(stageNames(byTags.queryPlanner.winningPlan)).toContain('SORT');
  });
});

describe('lazy find cursors', () => {
  it('read the plan batch by batch: documents removed before a getMore are not returned', async () => {
    const items = db.collection<AnyDoc>('lazy');
    await items.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, k: i })));
    await items.createIndex({ k: 1 });
    const cursor = items.find({ k: { $gte: 0 } }, { batchSize: 10, sort: { k: 1 } });
    const first: AnyDoc[] = [];
    for (let i = 0; i < 10; i++) first.push((await cursor.next()) as AnyDoc);
    await items.deleteMany({ k: { $gte: 20 } });
    await items.updateOne({ _id: 15 }, { $set: { k: 100 } });
    const rest = await cursor.toArray();
    expect(first.map((doc) => doc._id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // 10 was read ahead; 15 moved behind the scan position and is seen once, at its new key.
    expect(rest.map((doc) => doc._id)).toEqual([10, 11, 12, 13, 14, 16, 17, 18, 19, 15]);
  });

  it('fail with QueryPlanKilled when the index they read is dropped', async () => {
    const items = db.collection<AnyDoc>('dropped_under');
    await items.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i, k: i })));
    await items.createIndex({ k: 1 });
    const cursor = items.find({ k: { $gte: 0 } }, { batchSize: 5 });
    await cursor.next();
    await items.dropIndex('k_1');
    const error = await cursor.toArray().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 175, codeName: 'QueryPlanKilled' });
  });
});

describe('index sizes', () => {
  it('reports the BSON size of the keys plus 8 bytes per record id in collStats and $collStats', async () => {
    const items = db.collection<AnyDoc>('sized');
    await items.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, x: i })));
    await items.createIndex({ x: 1 });
    // {x: <int32>} is 12 bytes of BSON, {_id: <int32>} 14.
    const stats = await db.command({ collStats: 'sized' });
    expect(stats.indexSizes).toEqual({ _id_: 220, x_1: 200 });
    expect(stats.totalIndexSize).toBe(420);
    const [stage] = await items.aggregate([{ $collStats: { storageStats: {} } }]).toArray();
    expect(stage.storageStats).toMatchObject({ totalIndexSize: 420, indexSizes: { _id_: 220, x_1: 200 } });
  });
});

describe('usage statistics', () => {
  it('counts index accesses ($indexStats) and collection scans ($collStats queryExecStats)', async () => {
    const items = db.collection<AnyDoc>('used');
    await items.insertMany([
      { _id: 1, x: 1, y: 1 },
      { _id: 2, x: 2, y: 2 },
    ]);
    await items.createIndex({ x: 1 });
    await items.find({ x: 1 }).toArray();
    await items.find({ x: { $gt: 0 } }).toArray();
    await items.find({ y: 1 }).toArray();
    const pipeline = [{ $indexStats: {} }, { $project: { name: 1, ops: '$accesses.ops' } }];
    const accesses = await items.aggregate(pipeline).toArray();
    expect(accesses.map(({ name, ops }) => [name, Number(ops)])).toEqual([
      ['_id_', 0],
      ['x_1', 2],
    ]);
    const [stats] = await items.aggregate([{ $collStats: { queryExecStats: {} } }]).toArray();
    expect(Number(stats.queryExecStats.collectionScans.total)).toBe(1);
  });
});

describe('sorted results match a collection scan', () => {
  it('for sorts served by the index, in both directions, with skip and limit', async () => {
    const items = db.collection<AnyDoc>('sorted');
    await items.insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: i, u: (i * 37) % 200, g: i % 4 })));
    await items.createIndex({ g: 1, u: 1 });
    const cases: Array<[Filter<AnyDoc>, Sort, number, number]> = [
      [{ g: 2 }, { u: 1 }, 0, 7],
      [{ g: 2 }, { u: -1 }, 3, 7],
      [{ g: { $in: [1, 2] } }, { u: 1 }, 0, 10],
      [{}, { g: -1, u: -1 }, 5, 20],
      [{ u: { $gt: 50 } }, { g: 1, u: 1 }, 0, 0],
    ];
    for (const [filter, sort, skip, limit] of cases) {
      const [planned, scanned] = await withScan(items, filter, { sort, skip, limit });
      expect(planned).toEqual(scanned);
    }
  });
});

describe('IDHACK', () => {
  it('reads a plain {_id: value} straight from the _id index, equal numbers included', async () => {
    const items = db.collection<AnyDoc>('id_hack');
    await items.insertMany([
      { _id: 1, n: 'one' },
      { _id: 'a', n: 'a' },
      { _id: 2.5, n: 'two and a half' },
    ]);
    const explained = await explainFind(items, { _id: 1 });
    expect(explained.queryPlanner.winningPlan.stage).toBe('IDHACK');
    expect(explained.queryPlanner.rejectedPlans).toEqual([]);
    expect(explained.executionStats).toMatchObject({ nReturned: 1, totalKeysExamined: 1, totalDocsExamined: 1 });
    expect(await items.find({ _id: Long.fromNumber(1) }).toArray()).toEqual([{ _id: 1, n: 'one' }]);
    expect(await items.find({ _id: 'a' }, { projection: { _id: 0 } }).toArray()).toEqual([{ n: 'a' }]);
    const missing = await explainFind(items, { _id: 3 });
    expect(missing.executionStats).toMatchObject({ nReturned: 0, totalKeysExamined: 0, totalDocsExamined: 0 });
  });

  it('leaves operators, hints, skips and collated strings to the planner', async () => {
    const items = db.collection<AnyDoc>('id_hack');
    const planOf = async (filter: Filter<AnyDoc>, options: Document = {}) =>
      (await explainFind(items, filter, options)).queryPlanner.winningPlan.stage as string;
    expect(await planOf({ _id: { $gte: 1 } })).not.toBe('IDHACK');
    expect(await planOf({ _id: 1 }, { hint: { _id: 1 } })).not.toBe('IDHACK');
    expect(await planOf({ _id: 1 }, { skip: 1 })).not.toBe('IDHACK');
    expect(await planOf({ _id: 'A' }, { collation: { locale: 'en', strength: 2 } })).not.toBe('IDHACK');
    expect(await items.find({ _id: 'A' }, { collation: { locale: 'en', strength: 2 } }).toArray()).toEqual([
      { _id: 'a', n: 'a' },
    ]);
  });
});

describe('_id point look-ups beside other conditions', () => {
  let items: Items;

  beforeAll(async () => {
    items = db.collection<AnyDoc>('id_points');
    await items.insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: i, version: i % 3, a: i % 10 })));
    await items.createIndex({ a: 1 });
    await items.createIndex({ version: 1, a: 1 });
  });

  it('reads {_id: v, ...} through the _id index alone, the other conditions re-checked on the document', async () => {
    const explained = await explainFind(items, { _id: 7, version: 1, a: 7 });
    expect(stageNames(explained.queryPlanner.winningPlan)).toEqual(['FETCH', 'IXSCAN']);
    expect(explained.queryPlanner.winningPlan.filter).toEqual({ _id: 7, version: 1, a: 7 });
    expect(ixscan(explained)).toMatchObject({ indexName: '_id_', indexBounds: { _id: ['[7, 7]'] } });
    // No trial among the indexes on `a` and `version`, and nothing cached for the shape.
    expect(explained.queryPlanner.rejectedPlans).toEqual([]);
    expect(explained.executionStats).toMatchObject({ nReturned: 1, totalKeysExamined: 1, totalDocsExamined: 1 });
    const again = await explainFind(items, { _id: 8, version: 1, a: 8 });
    expect(again.queryPlanner.planCacheUsed).toBe(false);
    expect(again.queryPlanner.queryHash).toMatch(/^[0-9A-F]{8}$/);
    expect(again.queryPlanner.queryHash).toBe(explained.queryPlanner.queryHash);
    expect(again.executionStats).toMatchObject({ nReturned: 0, totalKeysExamined: 1, totalDocsExamined: 1 });
  });

  it('reads {_id: {$in}} as point look-ups in index order, giving the _id sort and stopping at the limit', async () => {
    const filter = { _id: { $in: [30, 10, 20, 999] }, a: 0 };
    const explained = await explainFind(items, filter, { sort: { _id: -1 }, limit: 2 });
    expect(stageNames(explained.queryPlanner.winningPlan)).toEqual(['LIMIT', 'FETCH', 'IXSCAN']);
    expect(ixscan(explained)).toMatchObject({
      indexName: '_id_',
      direction: 'backward',
      indexBounds: { _id: ['[999, 999]', '[30, 30]', '[20, 20]', '[10, 10]'] },
    });
    expect(explained.queryPlanner.rejectedPlans).toEqual([]);
    expect(explained.executionStats).toMatchObject({ nReturned: 2, totalKeysExamined: 2 });
    expect(await items.find(filter, { sort: { _id: -1 }, limit: 2 }).toArray()).toEqual([
      { _id: 30, version: 0, a: 0 },
      { _id: 20, version: 2, a: 0 },
    ]);
    const sortedElsewhere = await explainFind(items, { _id: { $in: [1, 2, 3] } }, { sort: { version: 1 } });
    expect(stageNames(sortedElsewhere.queryPlanner.winningPlan)).toEqual(['SORT', 'FETCH', 'IXSCAN']);
  });

  it('counts exact _id points from the keys and writes through the same plan', async () => {
    const counted = await items.find({ _id: { $in: [1, 2, 500] } }).explain('executionStats');
    expect(ixscan(counted)?.indexName).toBe('_id_');
    expect(await items.countDocuments({ _id: { $in: [1, 2, 500] } })).toBe(2);
    const update = await db.command({
      explain: { update: 'id_points', updates: [{ q: { _id: 4, version: 1 }, u: { $set: { a: 0 } } }] },
    });
    expect(ixscan(update)?.indexName).toBe('_id_');
    expect(update.queryPlanner.rejectedPlans).toEqual([]);
    expect(await items.updateOne({ _id: 4, version: 1 }, { $set: { a: 0 } })).toMatchObject({ matchedCount: 1 });
    expect(await items.updateOne({ _id: 4, version: 2 }, { $set: { a: 0 } })).toMatchObject({ matchedCount: 0 });
  });

  it('leaves hints, $natural, ranges and collated strings to the general planner', async () => {
    const planOf = (filter: Filter<AnyDoc>, options: Document = {}) => explainFind(items, filter, options);
    expect(ixscan(await planOf({ _id: 1, a: 1 }, { hint: { a: 1 } }))?.indexName).toBe('a_1');
    const natural = await planOf({ _id: 1, a: 1 }, { sort: { $natural: 1 } });
    expect(stageNames(natural.queryPlanner.winningPlan)).toEqual(['COLLSCAN']);
    expect((await planOf({ _id: { $gte: 1, $lt: 3 }, a: 1 })).queryPlanner.rejectedPlans).not.toEqual([]);
    const collated = await planOf({ _id: { $in: ['x', 'y'] }, a: 1 }, { collation: { locale: 'en', strength: 2 } });
    expect(ixscan(collated)?.indexName).toBe('a_1');
  });
});

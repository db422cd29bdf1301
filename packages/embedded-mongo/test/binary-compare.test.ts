import { Binary, UUID, type Collection, type Document } from 'mongodb';
import { failure, startHarness, type Harness } from './helpers';

/**
 * BinData in queries and aggregations as MongoDB compares it: equal when subtype and bytes are equal, ordered by
 * length, then subtype, then bytes (unsigned, byte by byte).
 */
const bin = (bytes: number[], subtype = 0): Binary => new Binary(Buffer.from(bytes), subtype);
const uuid = new UUID('90909090-9090-9090-9090-909090909090');

/** MongoDB's order of two BinData values, written out independently of the server. */
function mongoOrder(a: Binary, b: Binary): number {
  const [x, y] = [a.buffer.subarray(0, a.position), b.buffer.subarray(0, b.position)];
  if (x.length !== y.length) return x.length - y.length;
  if (a.sub_type !== b.sub_type) return a.sub_type - b.sub_type;
  return Buffer.compare(Buffer.from(x), Buffer.from(y));
}

const stageOf = (plan: Document, name: string): Document =>
  plan.stage === name ? plan : stageOf(plan.inputStage as Document, name);

type BinDoc = { _id: number; b?: Binary | Binary[] | { k: Binary } };

let harness: Harness;
let collection: Collection<BinDoc>;
let name = 0;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());
beforeEach(() => {
  collection = harness.client.db('bindata').collection<BinDoc>(`c${name++}`);
});

const ids = async (filter: Document): Promise<number[]> =>
  (await collection.find(filter).sort({ _id: 1 }).toArray()).map((doc) => doc._id);

describe('BinData equality', () => {
  // [0x80] and [0x81] are not UTF-8: both decode to U+FFFD.
  const docs: BinDoc[] = [
    { _id: 1, b: bin([0x80]) },
    { _id: 2, b: bin([0x81]) },
    { _id: 3, b: bin([0x80], 5) },
    { _id: 4, b: [bin([0x81]), bin([0x80])] },
    { _id: 5, b: uuid },
    { _id: 6, b: bin([...uuid.buffer], Binary.SUBTYPE_UUID_OLD) },
    { _id: 7, b: { k: bin([0x80]) } },
    { _id: 8, b: bin([0x80, 0x80]) },
  ];

  beforeEach(() => collection.insertMany(docs));

  it('matches same subtype and bytes in $eq, $in, $ne, $nin and $all', async () => {
    expect(await ids({ b: bin([0x80]) })).toEqual([1, 4]);
    expect(await ids({ b: { $in: [bin([0x81])] } })).toEqual([2, 4]);
    expect(await ids({ b: { $ne: bin([0x80]) } })).toEqual([2, 3, 5, 6, 7, 8]);
    expect(await ids({ b: { $nin: [bin([0x80]), bin([0x80], 5)] } })).toEqual([2, 5, 6, 7, 8]);
    expect(await ids({ b: { $all: [bin([0x80]), bin([0x81])] } })).toEqual([4]);
    expect(await ids({ b: { $all: [bin([0x80]), bin([0x82])] } })).toEqual([]);
  });

  it('tells a UUID from the same bytes of subtype 3, inside arrays and embedded documents too', async () => {
    expect(await ids({ b: uuid })).toEqual([5]);
    expect(await ids({ b: bin([...uuid.buffer], Binary.SUBTYPE_UUID_OLD) })).toEqual([6]);
    expect(await ids({ b: { $elemMatch: { $eq: bin([0x80]) } } })).toEqual([4]);
    expect(await ids({ b: { $elemMatch: { $eq: bin([0x80], 5) } } })).toEqual([]);
    expect(await ids({ b: { k: bin([0x80]) } })).toEqual([7]);
    expect(await ids({ b: { k: bin([0x81]) } })).toEqual([]);
    expect(await ids({ 'b.k': bin([0x80]) })).toEqual([7]);
  });

  it('groups, deduplicates and compares in aggregation by subtype and bytes', async () => {
    const values = [bin([0x80]), bin([0x81]), bin([0x80], 5), bin([0x80])];
    const items = harness.client.db('bindata').collection<{ _id: number; v: Binary }>(`items${name++}`);
    await items.insertMany(values.map((v, n) => ({ _id: n, v })));

    const groups = await items.aggregate([{ $group: { _id: '$v', n: { $sum: 1 } } }, { $sort: { _id: 1 } }]).toArray();
    expect(groups).toEqual([
      { _id: bin([0x80]), n: 2 },
      { _id: bin([0x81]), n: 1 },
      { _id: bin([0x80], 5), n: 1 },
    ]);

    const [sets] = await items
      .aggregate([
        { $group: { _id: null, added: { $addToSet: '$v' }, all: { $push: '$v' } } },
        { $project: { _id: 0, added: { $size: '$added' }, union: { $size: { $setUnion: ['$all', []] } } } },
      ])
      .toArray();
    expect(sets).toEqual({ added: 3, union: 3 });

    const flags = await items
      .aggregate([{ $project: { same: { $eq: ['$v', bin([0x80])] } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(flags.map((doc) => doc.same)).toEqual([true, false, false, true]);

    const distinct = await items.distinct('v');
    expect(distinct.map((value: Binary) => [value.sub_type, value.toString('hex')])).toEqual([
      [0, '80'],
      [0, '81'],
      [5, '80'],
    ]);
  });
});

describe('BinData order', () => {
  // Byte values whose base64 spellings sort apart from the bytes ('+w', '/w', 'AA'), lengths 0 to 17, subtypes 0
  // to 5, a UUID between 16-byte values of subtypes 3 and 5.
  const values = [
    bin([0xff]),
    bin([0x00]),
    bin([0xfb]),
    bin([0x00], 5),
    bin([0x01], 4),
    bin([]),
    bin([0x00, 0x00, 0x00]),
    bin([0xff, 0xff]),
    bin(new Array<number>(17).fill(0)),
    bin(new Array<number>(16).fill(0xff), Binary.SUBTYPE_UUID_OLD),
    uuid,
    bin(new Array<number>(16).fill(0), 5),
    bin([0x80], 2),
  ];
  const sorted = values.map((b, _id) => ({ _id, b })).sort((x, y) => mongoOrder(x.b, y.b));
  const order = sorted.map((doc) => doc._id);

  beforeEach(() => collection.insertMany(values.map((b, _id) => ({ _id, b }))));

  const sortedIds = async (direction: 1 | -1, hint?: Document): Promise<number[]> =>
    (
      await collection
        .find({}, hint ? { hint } : {})
        .sort({ b: direction })
        .toArray()
    ).map((doc) => doc._id);

  it('sorts by length, then subtype, then bytes, without an index and with one', async () => {
    expect(await sortedIds(1)).toEqual(order);
    expect(await sortedIds(-1)).toEqual([...order].reverse());
    await collection.createIndex({ b: 1 });
    // The index returns the order itself: no SORT stage.
    const plan = await collection
      .find({}, { hint: { b: 1 } })
      .sort({ b: 1 })
      .explain();
    expect(plan.queryPlanner.winningPlan).toMatchObject({ stage: 'FETCH', inputStage: { stage: 'IXSCAN' } });
    expect(await sortedIds(1, { b: 1 })).toEqual(order);
    expect(await sortedIds(-1, { b: 1 })).toEqual([...order].reverse());
    const grouped = await collection.aggregate([{ $sort: { b: 1 } }, { $project: { _id: 1 } }]).toArray();
    expect(grouped.map((doc) => doc._id)).toEqual(order);
  });

  it('compares with $lt, $gte and $max in the same order, UUIDs among other BinData', async () => {
    for (const pivot of [bin([0x80]), bin([0xfb]), uuid, bin(new Array<number>(16).fill(0), 3)]) {
      const below = sorted.filter((doc) => mongoOrder(doc.b, pivot) < 0).map((doc) => doc._id);
      const from = sorted.filter((doc) => mongoOrder(doc.b, pivot) >= 0).map((doc) => doc._id);
      expect(await ids({ b: { $lt: pivot } })).toEqual([...below].sort((x, y) => x - y));
      expect(await ids({ b: { $gte: pivot } })).toEqual([...from].sort((x, y) => x - y));
    }
    const [extremes] = await collection
      .aggregate([{ $group: { _id: null, min: { $min: '$b' }, max: { $max: '$b' } } }])
      .toArray();
    expect(extremes).toEqual({ _id: null, min: sorted[0].b, max: sorted[sorted.length - 1].b });
  });
});

describe('a BinData _id', () => {
  it('is found through the _id index, not a collection scan', async () => {
    const binaries = harness.client.db('bindata').collection<{ _id: Binary; n: number }>(`ids${name++}`);
    await binaries.insertMany([
      { _id: bin([0x80]), n: 1 },
      { _id: bin([0x81]), n: 2 },
      { _id: bin([0x80], 5), n: 3 },
      { _id: uuid, n: 4 },
    ]);
    const point = await binaries.find({ _id: bin([0x81]) }).explain('executionStats');
    expect(point.queryPlanner.winningPlan.stage).toBe('IDHACK');
    expect(point.executionStats).toMatchObject({ nReturned: 1, totalDocsExamined: 1 });
    expect(await binaries.find({ _id: uuid }).toArray()).toEqual([{ _id: uuid, n: 4 }]);

    const list = await binaries.find({ _id: { $in: [bin([0x80], 5), uuid] } }).explain('executionStats');
    expect(list.queryPlanner.winningPlan).toMatchObject({ stage: 'FETCH', inputStage: { stage: 'IXSCAN' } });
    expect(list.executionStats).toMatchObject({ nReturned: 2, totalDocsExamined: 2 });
    // Bounds in MongoDB's order (the 1-byte value first) and spelling.
    const hex = '90'.repeat(16).toUpperCase();
    expect(stageOf(list.queryPlanner.winningPlan, 'IXSCAN').indexBounds).toEqual({
      _id: ['[BinData(5, 80), BinData(5, 80)]', `[BinData(4, ${hex}), BinData(4, ${hex})]`],
    });

    const duplicate = await failure(binaries.insertOne({ _id: bin([0x81]), n: 5 }));
    expect(duplicate.message).toContain('dup key: { _id: BinData(0, 81) }');
  });
});

import {
  BSON,
  Double,
  Long,
  MongoServerError,
  ObjectId,
  type CreateIndexesOptions,
  type Db,
  type Document,
  type IndexSpecification,
} from 'mongodb';
import { startHarness, type AnyDoc, type Harness } from './helpers';

/**
 * `$lookup`, `$graphLookup`, `$unionWith` and `$facet` against the examples of MongoDB's manual (their
 * documented results), with and without an index on the foreign field.
 */
let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('lookup');
});
afterAll(() => harness.stop());

async function errorOf(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

type IndexToCreate = [IndexSpecification, CreateIndexesOptions];

async function fresh(name: string, docs: AnyDoc[], indexes: IndexToCreate[] = []): Promise<void> {
  await db
    .collection(name)
    .drop()
    .catch(() => undefined);
  await db.collection<AnyDoc>(name).insertMany(docs);
  for (const [key, options] of indexes) await db.collection(name).createIndex(key, options);
}

const run = (name: string, pipeline: Document[], options: Document = {}): Promise<Document[]> =>
  db.collection<AnyDoc>(name).aggregate(pipeline, options).toArray();
const codeOf = async (name: string, pipeline: Document[]): Promise<unknown> =>
  (await errorOf(run(name, pipeline))).code;
const ids = (docs: Document[]): unknown[] => docs.map((doc) => doc._id);
const byId = (docs: Document[]): Document[] => [...docs].sort((a, b) => (a._id < b._id ? -1 : 1));

const INVENTORY = [
  { _id: 1, sku: 'almonds', description: 'product 1', instock: 120 },
  { _id: 2, sku: 'bread', description: 'product 2', instock: 80 },
  { _id: 3, sku: 'cashews', description: 'product 3', instock: 60 },
  { _id: 4, sku: 'pecans', description: 'product 4', instock: 70 },
  { _id: 5, sku: null, description: 'Incomplete' },
  { _id: 6 },
];

const MEMBERS = [
  { _id: 1, name: 'artie', status: 'A' },
  { _id: 2, name: 'giraffe', status: 'D' },
  { _id: 3, name: 'giraffe1', status: 'A' },
  { _id: 4, name: 'panda', status: 'A' },
  { _id: 5, name: 'pandabear', status: 'A' },
  { _id: 6, name: 'giraffe2', status: 'D' },
];

/** Foreign-index variants: none, single-field, compound led by the foreign field; a sparse one must not be used. */
const INDEX_VARIANTS: Array<[string, (field: string) => IndexToCreate[]]> = [
  ['no index', () => []],
  ['a single-field index', (field) => [[{ [field]: 1 }, {}]]],
  ['a compound index led by the field', (field) => [[{ [field]: -1, _id: 1 }, {}]]],
  ['a sparse index (unusable)', (field) => [[{ [field]: 1 }, { sparse: true }]]],
];

describe.each(INDEX_VARIANTS)('$lookup equality with %s', (_name, indexes) => {
  beforeAll(async () => {
    await fresh('orders', [
      { _id: 1, item: 'almonds', price: 12, quantity: 2 },
      { _id: 2, item: 'pecans', price: 20, quantity: 1 },
      { _id: 3 },
    ]);
    await fresh('inventory', INVENTORY, indexes('sku'));
    await fresh('members', MEMBERS, indexes('name'));
    await fresh('classes', [
      { _id: 1, title: 'Reading is ...', enrollmentlist: ['giraffe2', 'pandabear', 'artie'] },
      { _id: 2, title: 'But Writing ...', enrollmentlist: ['giraffe1', 'artie'] },
    ]);
  });

  it('matches a missing local field with null and missing foreign fields (manual: single equality join)', async () => {
    const lookup = { from: 'inventory', localField: 'item', foreignField: 'sku', as: 'inventory_docs' };
    const joined = await db
      .collection('orders')
      .aggregate([{ $lookup: lookup }])
      .toArray();
    expect(joined).toEqual([
      { _id: 1, item: 'almonds', price: 12, quantity: 2, inventory_docs: [INVENTORY[0]] },
      { _id: 2, item: 'pecans', price: 20, quantity: 1, inventory_docs: [INVENTORY[3]] },
      { _id: 3, inventory_docs: [INVENTORY[4], INVENTORY[5]] },
    ]);
  });

  it('matches any element of a local array (manual: $lookup with an array)', async () => {
    const lookup = { from: 'members', localField: 'enrollmentlist', foreignField: 'name', as: 'enrollee_info' };
    const joined = await db
      .collection('classes')
      .aggregate([{ $lookup: lookup }])
      .toArray();
    expect(joined.map((doc) => byId(doc.enrollee_info))).toEqual([
      [MEMBERS[0], MEMBERS[4], MEMBERS[5]],
      [MEMBERS[0], MEMBERS[2]],
    ]);
  });
});

describe('$lookup equality semantics', () => {
  beforeAll(async () => {
    await fresh('tagged', [
      { _id: 1, tags: ['a', 'b'] },
      { _id: 2, tags: 'a' },
      { _id: 3, tags: [['a', 'b']] },
      { _id: 4, tags: [] },
      { _id: 5, tags: [null] },
      { _id: 6, nested: [{ k: 1 }, { k: 2 }, { other: 0 }] },
      { _id: 7, nested: { k: [2, 3] } },
      { _id: 8, n: Long.fromNumber(7) },
      { _id: 9, n: new Double(7) },
    ]);
    await fresh('locals', [
      { _id: 'scalar', v: 'a' },
      { _id: 'array', v: ['a', 'b'] },
      { _id: 'nestedArray', v: [['a', 'b']] },
      { _id: 'empty', v: [] },
      { _id: 'null', v: null },
      { _id: 'missing' },
      { _id: 'path', p: [{ q: 2 }, { q: 9 }] },
      { _id: 'number', v: 7 },
    ]);
  });

  async function joinIds(localField: string, foreignField: string): Promise<Record<string, unknown[]>> {
    const lookup = { from: 'tagged', localField, foreignField, as: 'j' };
    const joined = await db
      .collection<AnyDoc>('locals')
      .aggregate([{ $lookup: lookup }])
      .toArray();
    return Object.fromEntries(joined.map((doc) => [doc._id, ids(byId(doc.j))]));
  }

  async function checkSemantics(): Promise<void> {
    const onTags = await joinIds('v', 'tags');
    expect(onTags.scalar).toEqual([1, 2]);
    expect(onTags.array).toEqual([1, 2]);
    // A local array of arrays joins on its element ['a', 'b']: a foreign array equal to it, or holding it.
    expect(onTags.nestedArray).toEqual([1, 3]);
    // Missing, null and an empty local array all join as null: missing fields and null elements match, [] does not.
    for (const local of ['empty', 'null', 'missing']) expect(onTags[local]).toEqual([5, 6, 7, 8, 9]);
    expect(onTags.number).toEqual([]);
    const onNested = await joinIds('p.q', 'nested.k');
    expect(onNested.path).toEqual([6, 7]);
    // A sub-document of the array lacking `k` makes `nested.k` missing there, so null matches it.
    expect(onNested.missing).toEqual(expect.arrayContaining([6]));
    expect(onNested.missing).not.toContain(7);
    // 7, NumberLong(7) and 7.0 are equal.
    expect((await joinIds('v', 'n')).number).toEqual([8, 9]);
  }

  it('follows query equality without an index', checkSemantics);

  it('gives the same results through indexes on the foreign fields', async () => {
    const keys: IndexSpecification[] = [{ tags: 1 }, { 'nested.k': 1 }, { n: 1 }];
    for (const key of keys) await db.collection('tagged').createIndex(key);
    await checkSemantics();
  });

  it('sets a dotted `as` path and answers empty arrays for a missing foreign collection', async () => {
    const lookup = { from: 'absent', localField: 'v', foreignField: 'x', as: 'out.joined' };
    const [doc] = await run('locals', [{ $match: { _id: 'scalar' } }, { $lookup: lookup }]);
    expect(doc).toEqual({ _id: 'scalar', v: 'a', out: { joined: [] } });
  });

  it('joins under the command collation', async () => {
    await fresh(
      'words',
      [
        { _id: 1, w: 'Apple' },
        { _id: 2, w: 'apple' },
        { _id: 3, w: 'pear' },
      ],
      [[{ w: 1 }, {}]],
    );
    const lookup = { from: 'words', localField: 'v', foreignField: 'w', as: 'j' };
    const joined = await db
      .collection<AnyDoc>('locals')
      .aggregate([{ $match: { _id: 'scalar' } }, { $set: { v: 'APPLE' } }, { $lookup: lookup }], {
        collation: { locale: 'en', strength: 2 },
      })
      .toArray();
    expect(ids(joined[0].j)).toEqual([1, 2]);
  });
});

describe('$lookup with let and pipeline', () => {
  beforeAll(async () => {
    await fresh('orders2', [
      { _id: 1, item: 'almonds', price: 12, ordered: 2 },
      { _id: 2, item: 'pecans', price: 20, ordered: 1 },
      { _id: 3, item: 'cookies', price: 10, ordered: 60 },
    ]);
    await fresh('warehouses', [
      { _id: 1, stock_item: 'almonds', warehouse: 'A', instock: 120 },
      { _id: 2, stock_item: 'pecans', warehouse: 'A', instock: 80 },
      { _id: 3, stock_item: 'almonds', warehouse: 'B', instock: 60 },
      { _id: 4, stock_item: 'cookies', warehouse: 'B', instock: 40 },
      { _id: 5, stock_item: 'cookies', warehouse: 'A', instock: 80 },
    ]);
    await fresh('restaurants', [
      { _id: 1, name: 'American Steak House', food: ['filet', 'sirloin'], beverages: ['beer', 'wine'] },
      { _id: 2, name: 'Honest John Pizza', food: ['cheese pizza', 'pepperoni pizza'], beverages: ['soda'] },
    ]);
    await fresh('orders3', [
      { _id: 1, item: 'filet', restaurant_name: 'American Steak House' },
      { _id: 2, item: 'cheese pizza', restaurant_name: 'Honest John Pizza', drink: 'lemonade' },
      { _id: 3, item: 'cheese pizza', restaurant_name: 'Honest John Pizza', drink: 'soda' },
    ]);
  });

  it('joins on conditions over let variables (manual: multiple join conditions)', async () => {
    const joined = await db
      .collection('orders2')
      .aggregate([
        {
          $lookup: {
            from: 'warehouses',
            let: { order_item: '$item', order_qty: '$ordered' },
            pipeline: [
              {
                $match: {
                  $expr: { $and: [{ $eq: ['$stock_item', '$$order_item'] }, { $gte: ['$instock', '$$order_qty'] }] },
                },
              },
              { $project: { stock_item: 0, _id: 0 } },
            ],
            as: 'stockdata',
          },
        },
      ])
      .toArray();
    expect(joined).toEqual([
      {
        _id: 1,
        item: 'almonds',
        price: 12,
        ordered: 2,
        stockdata: [
          { warehouse: 'A', instock: 120 },
          { warehouse: 'B', instock: 60 },
        ],
      },
      { _id: 2, item: 'pecans', price: 20, ordered: 1, stockdata: [{ warehouse: 'A', instock: 80 }] },
      { _id: 3, item: 'cookies', price: 10, ordered: 60, stockdata: [{ warehouse: 'A', instock: 80 }] },
    ]);
  });

  it('runs the pipeline over the equality matches only (manual: concise syntax)', async () => {
    const joined = await db
      .collection('orders3')
      .aggregate([
        {
          $lookup: {
            from: 'restaurants',
            localField: 'restaurant_name',
            foreignField: 'name',
            let: { orders_drink: '$drink' },
            pipeline: [{ $match: { $expr: { $in: ['$$orders_drink', '$beverages'] } } }],
            as: 'matches',
          },
        },
      ])
      .toArray();
    expect(joined.map((doc) => ids(doc.matches))).toEqual([[], [], [2]]);
  });

  it('runs an uncorrelated pipeline and a pipeline from $documents, and sees command variables', async () => {
    const joined = await db
      .collection('orders2')
      .aggregate(
        [
          { $match: { _id: 1 } },
          {
            $lookup: {
              from: 'warehouses',
              pipeline: [{ $match: { $expr: { $eq: ['$warehouse', '$$wh'] } } }, { $count: 'n' }],
              as: 'inA',
            },
          },
          {
            $lookup: {
              pipeline: [{ $documents: [{ x: 1 }, { x: 2 }] }, { $match: { $expr: { $gt: ['$x', '$$min'] } } }],
              as: 'docs',
            },
          },
        ],
        { let: { wh: 'A', min: 0 } },
      )
      .toArray();
    expect(joined[0].inA).toEqual([{ n: 3 }]);
    expect(joined[0].docs).toEqual([{ x: 1 }, { x: 2 }]);
  });

  it('answers a correlated $expr equality as a full scan would, with or without an index', async () => {
    await fresh('correlatedForeign', [
      { _id: 1, k: 'a' },
      { _id: 2, k: ['a'] },
      { _id: 3, k: null },
      { _id: 4 },
      { _id: 5, k: 1 },
      { _id: 6, k: Long.fromNumber(1) },
    ]);
    await fresh('correlatedLocal', [
      { _id: 'a', v: 'a' },
      { _id: 'array', v: ['a'] },
      { _id: 'null', v: null },
      { _id: 'missing' },
      { _id: 'one', v: new Double(1) },
    ]);
    const join = (condition: Document) => {
      const pipeline = [{ $match: { $expr: condition } }, { $project: { _id: 1 } }];
      return [{ $lookup: { from: 'correlatedForeign', let: { v: '$v' }, pipeline, as: 'j' } }];
    };
    const conditions = [{ $eq: ['$k', '$$v'] }, { $and: [{ $eq: ['$$v', '$k'] }, { $gte: ['$_id', 0] }] }];
    // `$or: [condition]` is the same condition in a form that is not looked up (the pipeline scans everything).
    // ($expr comparisons are mingo's: an array on the left equals a scalar it holds, null equals missing.)
    const local = db.collection<AnyDoc>('correlatedLocal');
    const scanned = await Promise.all(
      conditions.map((condition) => local.aggregate(join({ $or: [condition] })).toArray()),
    );
    expect(scanned[0].find((doc) => doc._id === 'one')?.j).toEqual([{ _id: 5 }, { _id: 6 }]);
    for (const indexed of [false, true]) {
      if (indexed) await db.collection('correlatedForeign').createIndex({ k: 1 });
      for (const [i, condition] of conditions.entries()) {
        const looked = await local.aggregate(join(condition)).toArray();
        expect(looked.map((doc) => ({ ...doc, j: byId(doc.j) }))).toEqual(scanned[i]);
      }
    }
  });

  it('runs the $match, $sort and $limit of a join pipeline as the same stages do on a collection', async () => {
    // A join prepares these stages once and runs them on arrays (join-pipeline.ts); the same stages run
    // as a command's pipeline over the collection are the reference, ties included (input order).
    const oid = (hex: string) => new ObjectId(hex.padStart(24, '0'));
    await fresh('sortable', [
      { _id: 1, g: 'a', v: 3, w: 'x', at: new Date(2000), o: oid('2') },
      { _id: 2, g: 'a', v: -0, w: 'X', at: new Date(1000), o: oid('1') },
      { _id: 3, g: 'a', v: 0, w: 'é', o: oid('3') },
      { _id: 4, g: 'a', v: null, w: 'x', at: new Date(1000), o: 'text' },
      { _id: 5, g: 'a', w: true, at: null },
      { _id: 6, g: 'a', v: 'three', w: false, at: new Date(3000), o: oid('1') },
      { _id: 7, g: 'a', v: 2.5, w: 10, o: null },
      { _id: 8, g: 'b', v: 3, w: 'x' },
      { _id: 9, g: 'a', v: 3, w: 'a', at: new Date(2000), o: oid('2') },
      { _id: 10, g: 'a', v: [2, 9], w: { n: 1 } },
      { _id: 11, g: 'a', v: { n: 1 }, w: [1] },
    ]);
    await fresh('sortLocal', [{ _id: 'only' }]);
    const sorts = [{ v: 1 }, { v: -1 }, { w: 1, v: -1 }, { at: -1, _id: 1 }, { o: 1 }, { o: -1, w: 1 }, { g: 1 }];
    const matches = [{ g: 'a' }, { g: 'a', _id: { $lte: 9 } }, { v: { $gte: 0 } }];
    for (const $match of matches) {
      for (const $sort of sorts) {
        for (const tail of [[], [{ $limit: 3 }], [{ $limit: 3 }, { $project: { _id: 1 } }]]) {
          const stages = [{ $match }, { $sort }, ...tail];
          const expected = await run('sortable', [{ $skip: 0 }, ...stages]);
          const joined = await run('sortLocal', [{ $lookup: { from: 'sortable', pipeline: stages, as: 'j' } }]);
          expect({ stages, j: joined[0].j }).toEqual({ stages, j: expected });
        }
      }
    }
  });

  it('projects top-level fields in a join pipeline as a find projects them: fields in order, number types kept', async () => {
    // A join runs a `$project` of top-level fields on arrays (join-pipeline.ts); a find's projection of the same
    // documents is the reference: `_id` first, then the document's own field order (MongoDB's), and Long and Double
    // values as stored (canonical extended JSON shows both).
    await fresh('projected', [
      { _id: 1, k: 'a', b: 2, a: Long.fromNumber(3), c: [1, { d: new Double(1) }], e: { f: new Double(2) } },
      { _id: 2, a: 1, k: 'a', e: null },
      { _id: 3, k: 'a' },
      { _id: 4, k: 'b', a: 5 },
    ]);
    await fresh('projectLocal', [{ _id: 'one', k: 'a' }]);
    const projections = [
      { a: 1, b: 1 },
      { b: 1, _id: 0, a: 1 },
      { e: 1, missing: 1, c: true },
      { a: 0, c: 0 },
      { _id: 0 },
      { _id: false, e: 0, k: 0 },
    ];
    const canonical = (docs: Document[]) => BSON.EJSON.stringify(byId(docs), { relaxed: false });
    for (const $project of projections) {
      const typed = { promoteValues: false };
      const found = await db
        .collection('projected')
        .find({ k: 'a' }, { projection: $project, ...typed })
        .toArray();
      const lookup = { from: 'projected', localField: 'k', foreignField: 'k', as: 'j', pipeline: [{ $project }] };
      const [local] = await run('projectLocal', [{ $lookup: lookup }], typed);
      expect({ $project, j: canonical(local.j as Document[]) }).toEqual({ $project, j: canonical(found) });
    }
  });

  it('nests lookups', async () => {
    const [order] = await db
      .collection('orders3')
      .aggregate([
        { $match: { _id: 3 } },
        {
          $lookup: {
            from: 'restaurants',
            localField: 'restaurant_name',
            foreignField: 'name',
            pipeline: [
              { $lookup: { from: 'orders3', localField: 'name', foreignField: 'restaurant_name', as: 'allOrders' } },
              { $project: { n: { $size: '$allOrders' } } },
            ],
            as: 'r',
          },
        },
      ])
      .toArray();
    expect(order.r).toEqual([{ _id: 2, n: 2 }]);
  });
});

describe('$lookup on views', () => {
  it('reads a view as the foreign collection, and a view may itself look up', async () => {
    await fresh('stock', INVENTORY);
    await db
      .collection('inStock')
      .drop()
      .catch(() => undefined);
    await db.createCollection('inStock', { viewOn: 'stock', pipeline: [{ $match: { instock: { $gt: 65 } } }] });
    await fresh('wanted', [
      { _id: 'a', sku: 'almonds' },
      { _id: 'c', sku: 'cashews' },
    ]);
    const lookup = { from: 'inStock', localField: 'sku', foreignField: 'sku', as: 'stock' };
    const joined = await db
      .collection('wanted')
      .aggregate([{ $lookup: lookup }])
      .toArray();
    expect(joined.map((doc) => ids(doc.stock))).toEqual([[1], []]);

    await db
      .collection('wantedStock')
      .drop()
      .catch(() => undefined);
    const viewLookup = { from: 'stock', localField: 'sku', foreignField: 'sku', as: 'stock' };
    await db.createCollection('wantedStock', { viewOn: 'wanted', pipeline: [{ $lookup: viewLookup }] });
    const viaView = await db.collection('wantedStock').find({}).toArray();
    expect(viaView.map((doc) => ids(doc.stock))).toEqual([[1], [3]]);
  });
});

describe('$lookup errors', () => {
  it('answers FailedToParse for bad specifications', async () => {
    const orders = db.collection('orders');
    const bad = [
      { from: 'x', localField: 'a', foreignField: 'b' },
      { from: 'x', localField: 'a', as: 'j' },
      { from: 'x', as: 'j' },
      { from: 'x', localField: 'a', foreignField: 'b', as: 'j', extra: 1 },
    ];
    for (const spec of bad) expect((await errorOf(orders.aggregate([{ $lookup: spec }]).toArray())).code).toBe(9);
  });
});

const REPORTS_TO = {
  from: 'employees',
  startWith: '$reportsTo',
  connectFromField: 'reportsTo',
  connectToField: 'name',
};
const HOBBIES = [
  ['tennis', 'unicycling', 'golf'],
  ['archery', 'golf', 'woodworking'],
  ['knitting', 'frisbee'],
  ['tennis', 'golf', 'topiary'],
  ['travel', 'ceramics', 'golf'],
  ['frisbee', 'set theory'],
];

describe('$graphLookup', () => {
  beforeAll(async () => {
    await fresh('employees', [
      { _id: 1, name: 'Dev' },
      { _id: 2, name: 'Eliot', reportsTo: 'Dev' },
      { _id: 3, name: 'Ron', reportsTo: 'Eliot' },
      { _id: 4, name: 'Andrew', reportsTo: 'Eliot' },
      { _id: 5, name: 'Asya', reportsTo: 'Ron' },
      { _id: 6, name: 'Dan', reportsTo: 'Andrew' },
    ]);
    await fresh('airports', [
      { _id: 0, airport: 'JFK', connects: ['BOS', 'ORD'] },
      { _id: 1, airport: 'BOS', connects: ['JFK', 'PWM'] },
      { _id: 2, airport: 'ORD', connects: ['JFK'] },
      { _id: 3, airport: 'PWM', connects: ['BOS', 'LHR'] },
      { _id: 4, airport: 'LHR', connects: ['PWM'] },
    ]);
    await fresh('travelers', [
      { _id: 1, name: 'Dev', nearestAirport: 'JFK' },
      { _id: 2, name: 'Eliot', nearestAirport: 'JFK' },
      { _id: 3, name: 'Jeff', nearestAirport: 'BOS' },
    ]);
    await fresh(
      'people',
      [
        { _id: 1, name: 'Tanya Jordan', friends: ['Shirley Soto', 'Terry Hawkins', 'Carole Hale'] },
        { _id: 2, name: 'Carole Hale', friends: ['Joseph Dennis', 'Tanya Jordan', 'Terry Hawkins'] },
        { _id: 3, name: 'Terry Hawkins', friends: ['Tanya Jordan', 'Carole Hale', 'Angelo Ward'] },
        { _id: 4, name: 'Joseph Dennis', friends: ['Angelo Ward', 'Carole Hale'] },
        { _id: 5, name: 'Angelo Ward', friends: ['Terry Hawkins', 'Shirley Soto', 'Joseph Dennis'] },
        { _id: 6, name: 'Shirley Soto', friends: ['Angelo Ward', 'Tanya Jordan', 'Carole Hale'] },
      ].map((person, i) => ({ ...person, hobbies: HOBBIES[i] })),
    );
  });

  it('walks a hierarchy (manual: within a single collection)', async () => {
    const spec = { ...REPORTS_TO, as: 'reportingHierarchy' };
    const walked = await run('employees', [{ $graphLookup: spec }]);
    const hierarchies = walked.map((doc) => ids(byId(doc.reportingHierarchy)));
    expect(hierarchies).toEqual([[], [1], [1, 2], [1, 2], [1, 2, 3], [1, 2, 4]]);
  });

  it('stops at maxDepth, reports depths as int64 and ends cycles (manual: across multiple collections)', async () => {
    const spec = {
      ...{ from: 'airports', startWith: '$nearestAirport', connectFromField: 'connects', connectToField: 'airport' },
      ...{ maxDepth: 2, depthField: 'numConnections', as: 'destinations' },
    };
    const long = (n: number): Long => Long.fromNumber(n);
    for (const indexed of [false, true]) {
      if (indexed) await db.collection('airports').createIndex({ airport: 1 });
      const walked = await run('travelers', [{ $graphLookup: spec }], { promoteLongs: false });
      const depthOf = (doc: Document) =>
        Object.fromEntries(doc.destinations.map((d: Document) => [d.airport, d.numConnections]));
      const depths = walked.map(depthOf);
      expect(depths[0]).toEqual({ JFK: long(0), BOS: long(1), ORD: long(1), PWM: long(2) });
      expect(depths[1]).toEqual(depths[0]);
      expect(depths[2]).toEqual({ BOS: long(0), JFK: long(1), PWM: long(1), ORD: long(2), LHR: long(2) });
      const { maxDepth: _maxDepth, ...unboundedSpec } = spec;
      const unbounded = await run('travelers', [{ $match: { _id: 1 } }, { $graphLookup: unboundedSpec }]);
      expect(unbounded[0].destinations).toHaveLength(5);
    }
  });

  it('restricts the search with a match (manual: restrictSearchWithMatch)', async () => {
    const [tanya] = await db
      .collection('people')
      .aggregate([
        { $match: { name: 'Tanya Jordan' } },
        {
          $graphLookup: {
            ...{ from: 'people', startWith: '$friends', connectFromField: 'friends', connectToField: 'name' },
            as: 'golfers',
            restrictSearchWithMatch: { hobbies: 'golf' },
          },
        },
        { $project: { name: 1, friends: 1, 'connections who play golf': '$golfers.name' } },
      ])
      .toArray();
    const golfers = [...tanya['connections who play golf']].sort();
    expect(golfers).toEqual(['Angelo Ward', 'Carole Hale', 'Joseph Dennis', 'Tanya Jordan']);
  });

  it('answers MongoDB error codes for bad arguments', async () => {
    const base = { ...REPORTS_TO, as: 'h' };
    expect(await codeOf('employees', [{ $graphLookup: { ...base, maxDepth: -1 } }])).toBe(40101);
    expect(await codeOf('employees', [{ $graphLookup: { ...base, maxDepth: 1.5 } }])).toBe(40100);
    const { connectToField: _connectToField, ...incomplete } = base;
    expect(await codeOf('employees', [{ $graphLookup: incomplete }])).toBe(40105);
    expect(await codeOf('employees', [{ $graphLookup: { ...base, depth: 1 } }])).toBe(40104);
    expect(await codeOf('employees', [{ $graphLookup: { ...base, connectToField: 1 } }])).toBe(40103);
  });
});

describe('$unionWith', () => {
  beforeAll(async () => {
    await fresh('suppliers', [
      { _id: 1, supplier: 'Aardvark and Sons', state: 'Texas' },
      { _id: 2, supplier: 'Bears Run Amok.', state: 'Colorado' },
      { _id: 3, supplier: 'Squid Mark Inc. ', state: 'Rhode Island' },
    ]);
    await fresh(
      'warehouses2',
      [
        { _id: 1, warehouse: 'A', region: 'West', state: 'California' },
        { _id: 2, warehouse: 'B', region: 'Central', state: 'Colorado' },
        { _id: 3, warehouse: 'C', region: 'East', state: 'Florida' },
      ],
      [[{ region: 1 }, {}]],
    );
  });

  it('appends another collection through its pipeline (manual: report of all states)', async () => {
    const project = { $project: { state: 1, _id: 0 } };
    const states = await run('suppliers', [project, { $unionWith: { coll: 'warehouses2', pipeline: [project] } }]);
    const names = states.map((doc) => doc.state);
    expect(names).toEqual(['Texas', 'Colorado', 'Rhode Island', 'California', 'Colorado', 'Florida']);
  });

  it('takes a name, a leading $match, $documents, and feeds later stages', async () => {
    expect(await run('suppliers', [{ $unionWith: 'warehouses2' }, { $count: 'n' }])).toEqual([{ n: 6 }]);
    const east = { coll: 'warehouses2', pipeline: [{ $match: { region: 'East' } }, { $project: { warehouse: 1 } }] };
    const matched = await run('suppliers', [{ $match: { _id: 1 } }, { $unionWith: east }]);
    expect(matched).toEqual([
      { _id: 1, supplier: 'Aardvark and Sons', state: 'Texas' },
      { _id: 3, warehouse: 'C' },
    ]);
    const documents = { pipeline: [{ $documents: [{ _id: 9 }] }] };
    const onlyId = { $project: { _id: 1 } };
    const withDocuments = await run('suppliers', [{ $match: { _id: 2 } }, onlyId, { $unionWith: documents }]);
    expect(withDocuments).toEqual([{ _id: 2 }, { _id: 9 }]);
    expect(await run('suppliers', [{ $match: { _id: 1 } }, { $unionWith: 'absent' }])).toHaveLength(1);
  });
});

describe('$facet', () => {
  it('pages and counts the same input in one pass', async () => {
    await fresh(
      'paged',
      Array.from({ length: 25 }, (_, i) => ({ _id: i, n: i % 5 })),
    );
    const facets = {
      data: [{ $skip: 5 }, { $limit: 3 }],
      total: [{ $count: 'n' }],
      sorted: [{ $sort: { _id: 1 } }, { $limit: 1 }],
      first: [{ $limit: 1 }],
      joined: [{ $limit: 1 }, { $lookup: { from: 'paged', localField: 'n', foreignField: '_id', as: 'same' } }],
    };
    const [page] = await run('paged', [{ $match: { n: { $gte: 1 } } }, { $sort: { _id: -1 } }, { $facet: facets }]);
    expect(ids(page.data)).toEqual([18, 17, 16]);
    expect(page.total).toEqual([{ n: 20 }]);
    // A facet sorting its input leaves the other facets' input order as it was.
    expect(ids(page.sorted)).toEqual([1]);
    expect(ids(page.first)).toEqual([24]);
    expect(ids(page.joined[0].same)).toEqual([4]);
    expect(await codeOf('paged', [{ $facet: { x: [{ $out: 'y' }] } }])).toBe(40600);
  });
});

describe('number types through lookups', () => {
  it('keeps int64 and double fields of local and foreign documents', async () => {
    await fresh('typedLocal', [{ _id: 1, k: 1, l: Long.fromNumber(2), d: new Double(3) }]);
    await fresh('typedForeign', [{ _id: 1, k: 1, l: Long.fromNumber(4), d: new Double(5) }]);
    const lookup = { from: 'typedForeign', localField: 'k', foreignField: 'k', as: 'f' };
    const [joined] = await run('typedLocal', [{ $lookup: lookup }], { promoteValues: false });
    expect(joined.l).toBeInstanceOf(Long);
    expect(joined.d).toBeInstanceOf(Double);
    expect(joined.f[0].l).toBeInstanceOf(Long);
    expect(joined.f[0].d).toBeInstanceOf(Double);
  });
});

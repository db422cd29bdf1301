import { Binary, Code, ObjectId, UUID, type Db, type Document, type UpdateFilter } from 'mongodb';
import { failure, startHarness, type Harness } from './helpers';

// MongoDB's documented behaviour where the embedded server used to differ (found by mongoose's own suite;
// see scripts/run-mongoose-suite.sh). Each case is written from MongoDB's manual, not from mongoose's tests.
/** Documents with numeric `_id`s and any fields (updates below use positional paths the driver's types reject). */
type Loose = Document & { _id: number };

let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('semantics');
});
afterAll(() => harness.stop());

describe('updates of _id', () => {
  // "You cannot update the value of the _id field" (manual, Update Documents): setting it to its own value is no change.
  it('accepts $set of _id to its unchanged value and refuses another value or $unset', async () => {
    const items = db.collection<{ _id: ObjectId; n: number }>('id_set');
    const _id = new ObjectId();
    await items.insertOne({ _id, n: 1 });
    const result = await items.updateOne({ _id }, { $set: { _id, n: 2 } });
    expect(result.modifiedCount).toBe(1);
    expect(await items.findOne({ _id })).toEqual({ _id, n: 2 });
    const changed = await failure(items.updateOne({ _id }, { $set: { _id: new ObjectId() } }));
    expect(changed).toMatchObject({ code: 66, codeName: 'ImmutableField' });
    const unset = await failure(items.updateOne({ _id }, { $unset: { _id: 1 } }));
    expect(unset).toMatchObject({ code: 66, codeName: 'ImmutableField' });
    expect(await items.findOne({ _id })).toEqual({ _id, n: 2 });
  });
});

describe('update path conflicts', () => {
  const seed = {
    _id: 1,
    children: [
      { id: 'a', x: 1, tags: ['t'] },
      { id: 'b', x: 2, tags: [] as string[] },
    ],
  };

  it('sets two fields of the element matched by the positional $', async () => {
    const coll = db.collection<Loose>('positional_siblings');
    await coll.insertOne(structuredClone(seed));
    await coll.updateOne({ 'children.id': 'b' }, { $set: { 'children.$.x': 20, 'children.$.updatedAt': 7 } });
    expect((await coll.findOne({ _id: 1 }))?.children).toEqual([
      { id: 'a', x: 1, tags: ['t'] },
      { id: 'b', x: 20, tags: [], updatedAt: 7 },
    ]);
  });

  it('combines $addToSet and $set on the positional element, though the filter no longer matches after $set', async () => {
    const coll = db.collection<Loose>('positional_add_to_set');
    await coll.insertOne(structuredClone(seed));
    await coll.updateOne({ 'children.x': 1 }, { $addToSet: { 'children.$.tags': 'u' }, $set: { 'children.$.x': 9 } });
    expect((await coll.findOne({ _id: 1 }))?.children).toEqual([
      { id: 'a', x: 9, tags: ['t', 'u'] },
      { id: 'b', x: 2, tags: [] },
    ]);
  });

  it('sets two fields through one array filter identifier', async () => {
    const coll = db.collection<Loose>('array_filter_siblings');
    await coll.insertOne(structuredClone(seed));
    await coll.updateOne(
      { _id: 1 },
      { $set: { 'children.$[c].x': 5, 'children.$[c].y': 6 } },
      { arrayFilters: [{ 'c.id': 'a' }] },
    );
    expect((await coll.findOne({ _id: 1 }))?.children).toEqual([
      { id: 'a', x: 5, y: 6, tags: ['t'] },
      { id: 'b', x: 2, tags: [] },
    ]);
  });

  it('still refuses overlapping paths with ConflictingUpdateOperators', async () => {
    const coll = db.collection<Loose>('conflicts');
    await coll.insertOne(structuredClone(seed));
    const nested = await failure(coll.updateOne({ _id: 1 }, { $set: { children: [] }, $unset: { 'children.0': 1 } }));
    expect(nested).toMatchObject({ code: 40, codeName: 'ConflictingUpdateOperators' });
    const positional = await failure(
      coll.updateOne({ 'children.id': 'a' }, { $set: { 'children.$': {} }, $inc: { 'children.$.x': 1 } }),
    );
    expect(positional).toMatchObject({ code: 40 });
    const renamed = await failure(coll.updateOne({ _id: 1 }, { $rename: { a: 'b' }, $set: { 'b.c': 1 } }));
    expect(renamed).toMatchObject({ code: 40 });
  });

  it('answers BadValue when the positional $ finds no match in the filter', async () => {
    const coll = db.collection<Loose>('positional_no_match');
    await coll.insertOne(structuredClone(seed));
    const error = await failure(coll.updateOne({ _id: 1 }, { $set: { 'children.$.x': 1 } }));
    expect(error).toMatchObject({ code: 2 });
    expect(error.message).toContain('positional operator did not find the match needed from the query');
  });
});

describe('query operators', () => {
  it('projects with $elemMatch the first element matching operators on scalar elements', async () => {
    // Manual, $elemMatch (projection): the condition is the $elemMatch query operator's, e.g. {$gte: 85}.
    const coll = db.collection<Loose>('elem_match_projection');
    await coll.insertOne({ _id: 1, scores: [70, 88, 95], ids: ['a', 'b', 'c'] });
    const found = await coll.findOne(
      { _id: 1 },
      { projection: { scores: { $elemMatch: { $gte: 85 } }, ids: { $elemMatch: { $in: ['c', 'b'] } } } },
    );
    expect(found).toEqual({ _id: 1, scores: [88], ids: ['b'] });
    const none = await coll.findOne({ _id: 1 }, { projection: { scores: { $elemMatch: { $gt: 100 } } } });
    expect(none).toEqual({ _id: 1 });
  });

  it('matches $all against a non-array field as equality and against arrays item by item, regexes included', async () => {
    // Manual, $all: {tags: {$all: ["ssl", "security"]}} is {$and: [{tags: "ssl"}, {tags: "security"}]}.
    const coll = db.collection<Loose>('all_values');
    await coll.insertMany([
      { _id: 1, title: 'Aristocats', tags: ['onex', 'twox', 'threex'] },
      { _id: 2, title: 'Bambi', tags: ['twox'] },
    ]);
    const ids = async (filter: Document): Promise<number[]> =>
      (await coll.find(filter).sort({ _id: 1 }).toArray()).map((doc) => doc._id);
    expect(await ids({ title: { $all: ['Aristocats'] } })).toEqual([1]);
    expect(await ids({ title: { $all: [/^Ari/] } })).toEqual([1]);
    expect(await ids({ title: { $all: ['Aristocats', 'Bambi'] } })).toEqual([]);
    expect(await ids({ tags: { $all: ['twox', 'onex'] } })).toEqual([1]);
    expect(await ids({ tags: { $all: [/^TWO/i] } })).toEqual([1, 2]);
    expect(await ids({ tags: { $all: [] } })).toEqual([]);
  });

  it('tests $bitsAllSet, $bitsAnySet, $bitsAllClear and $bitsAnyClear on BinData, bit 0 being the low bit of byte 0', async () => {
    // Manual, $bitsAllSet: BinData bitmasks and values; a BinData value of 0x20 0x01 has bits 5 and 8 set.
    const coll = db.collection<Loose>('bits_binary');
    await coll.insertMany([
      { _id: 1, bits: new Binary(Buffer.from([0x20, 0x01])) },
      { _id: 2, bits: new UUID('ff000000-0000-4000-8000-000000000000') },
      { _id: 3, bits: 0x21 },
    ]);
    const ids = async (filter: Document): Promise<number[]> =>
      (await coll.find(filter).sort({ _id: 1 }).toArray()).map((doc) => doc._id);
    expect(await ids({ bits: { $bitsAllSet: [5, 8] } })).toEqual([1]);
    expect(await ids({ bits: { $bitsAllSet: [0, 7] } })).toEqual([2]);
    expect(await ids({ bits: { $bitsAllSet: 0x21 } })).toEqual([2, 3]);
    expect(await ids({ bits: { $bitsAnySet: new Binary(Buffer.from([0x00, 0x01])) } })).toEqual([1]);
    expect(await ids({ bits: { $bitsAllClear: [1, 2] } })).toEqual([1, 3]);
    expect(await ids({ bits: { $bitsAnyClear: [0, 7] } })).toEqual([1, 3]);
    expect(await ids({ bits: { $bitsAllSet: [200] } })).toEqual([]);
  });
});

describe('$pull', () => {
  /** The driver's types allow no query operators in `$pull` on an untyped array. */
  const pull = (spec: Document): UpdateFilter<Loose> => ({ $pull: spec });

  it('reads a condition of $or/$and as a query on each element as a document, subdocuments without _id included', async () => {
    // Manual, $pull: "If the specified <value> to remove is a document, $pull removes only the elements in the
    // array that have the exact same fields and values" as a query on the elements, logical operators included.
    const coll = db.collection<Loose>('pull_or');
    await coll.insertOne({
      _id: 1,
      members: [
        { name: 'Axl', role: 'Singer' },
        { name: 'Slash', role: 'Guitar' },
        { name: 'Izzy', role: 'Guitar' },
        'not a document',
      ],
    });
    await coll.updateOne({ _id: 1 }, pull({ members: { $or: [{ name: 'Slash', role: 'Guitar' }] } }));
    expect((await coll.findOne({ _id: 1 }))?.members).toEqual([
      { name: 'Axl', role: 'Singer' },
      { name: 'Izzy', role: 'Guitar' },
      'not a document',
    ]);
    const result = await coll.updateOne(
      { _id: 1 },
      pull({ members: { $and: [{ role: 'Guitar' }, { name: { $ne: 'Nobody' } }] } }),
    );
    expect(result.modifiedCount).toBe(1);
    expect((await coll.findOne({ _id: 1 }))?.members).toEqual([{ name: 'Axl', role: 'Singer' }, 'not a document']);
  });

  it('still reads a condition of field operators as a condition on the element itself', async () => {
    const coll = db.collection<Loose>('pull_values');
    await coll.insertOne({ _id: 1, scores: [1, 5, 8, 10] });
    await coll.updateOne({ _id: 1 }, pull({ scores: { $gte: 6 } }));
    expect((await coll.findOne({ _id: 1 }))?.scores).toEqual([1, 5]);
  });
});

describe('$count', () => {
  it('outputs no document when no document reaches it, and the count otherwise', async () => {
    const coll = db.collection<Loose>('counted');
    await coll.insertMany([
      { _id: 1, v: 1 },
      { _id: 2, v: 2 },
    ]);
    expect(await coll.aggregate([{ $match: { v: 3 } }, { $count: 'n' }]).toArray()).toEqual([]);
    expect(await coll.aggregate([{ $match: { v: 2 } }, { $count: 'n' }]).toArray()).toEqual([{ n: 1 }]);
    expect(await coll.aggregate([{ $count: 'n' }]).toArray()).toEqual([{ n: 2 }]);
    expect(
      await db
        .collection('none')
        .aggregate([{ $count: 'n' }])
        .toArray(),
    ).toEqual([]);
  });
});

describe('$slice projections', () => {
  // Manual, $slice (projection): alone or beside exclusions every other field is returned; beside inclusions
  // only the included ones.
  const seed = { _id: 1, name: 'Mass Effect', developer: 'BioWare', arr: [1, 2, 3], sub: { x: 1, y: 2 } };

  it('returns every other field with a $slice alone, beside exclusions, and beside _id: 0', async () => {
    const coll = db.collection<Loose>('slice_projection');
    await coll.insertOne(structuredClone(seed));
    const find = (projection: Document) => coll.findOne({ _id: 1 }, { projection });
    expect(await find({ arr: { $slice: 1 } })).toEqual({ ...seed, arr: [1] });
    expect(await find({ developer: 0, 'sub.x': 0, arr: { $slice: -2 } })).toEqual({
      _id: 1,
      name: 'Mass Effect',
      arr: [2, 3],
      sub: { y: 2 },
    });
    expect(await find({ _id: 0, arr: { $slice: [1, 1] } })).toEqual({
      name: 'Mass Effect',
      developer: 'BioWare',
      arr: [2],
      sub: { x: 1, y: 2 },
    });
    expect(await find({ name: 1, arr: { $slice: [-1, 5] } })).toEqual({ _id: 1, name: 'Mass Effect', arr: [3] });
  });

  it('slices arrays inside arrays of subdocuments and in findAndModify fields', async () => {
    const coll = db.collection<Loose>('slice_nested');
    await coll.insertOne({ _id: 1, posts: [{ tags: ['a', 'b'] }, { tags: ['c'] }], n: 1 });
    expect(await coll.findOne({ _id: 1 }, { projection: { 'posts.tags': { $slice: 1 } } })).toEqual({
      _id: 1,
      posts: [{ tags: ['a'] }, { tags: ['c'] }],
      n: 1,
    });
    const after = await coll.findOneAndUpdate(
      { _id: 1 },
      { $inc: { n: 1 } },
      { projection: { 'posts.tags': { $slice: -1 } }, returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 1, posts: [{ tags: ['b'] }, { tags: ['c'] }], n: 2 });
  });
});

describe('create', () => {
  it('reads capped as a boolean: a number asks for a capped collection, which needs a size', async () => {
    const error = await failure(db.createCollection('capped_number', { capped: 1024 as unknown as boolean }));
    expect(error).toMatchObject({ code: 72, codeName: 'InvalidOptions' });
    expect((await db.listCollections({ name: 'capped_number' }).toArray()).length).toBe(0);
  });

  it('lists a collection created with timeseries as type timeseries, with the defaults MongoDB fills in', async () => {
    // Manual, Time Series Collections: listCollections shows type "timeseries"; granularity defaults to "seconds".
    await db.createCollection('weather', { timeseries: { timeField: 'timestamp', metaField: 'metadata' } });
    const [info] = await db.listCollections({ name: 'weather' }).toArray();
    expect(info).toMatchObject({
      type: 'timeseries',
      options: {
        timeseries: {
          timeField: 'timestamp',
          metaField: 'metadata',
          granularity: 'seconds',
          bucketMaxSpanSeconds: 3600,
        },
      },
    });
    await db.collection('weather').insertOne({ timestamp: new Date(0), metadata: { sensor: 1 }, temp: 12 });
    expect(await db.collection('weather').countDocuments({ 'metadata.sensor': 1 })).toBe(1);
  });

  it('refuses timeseries without a timeField or with an unknown granularity', async () => {
    const missing = await failure(db.command({ create: 'ts_bad', timeseries: { metaField: 'm' } }));
    expect(missing.code).toBe(40414);
    const granularity = await failure(
      db.command({ create: 'ts_bad', timeseries: { timeField: 't', granularity: 'days' } }),
    );
    expect(granularity.code).toBe(2);
  });
});

describe('dollar-prefixed field names', () => {
  // Manual, Dollar-Prefixed Field Names: an upsert that inserts is validated as an insert and may $set a
  // `$`-prefixed field; the same update fails when it matches an existing document.
  it('lets an upsert that inserts $set a top-level $-prefixed field, and refuses it on an existing document', async () => {
    const coll = db.collection<Loose>('dollar_fields');
    await coll.updateOne({ _id: 1 }, { $set: { phone: 25.17, $hotel: 320.1, $each: { count: 42 } } }, { upsert: true });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, phone: 25.17, $hotel: 320.1, $each: { count: 42 } });
    const error = await failure(coll.updateOne({ _id: 1 }, { $set: { $hotel: 1 } }, { upsert: true }));
    expect(error.code).toBe(2);
    expect(await coll.findOne({ _id: 1 })).toMatchObject({ $hotel: 320.1 });
  });
});

describe('BinData subtypes', () => {
  // BSON spec: BinData is compared by length, then subtype, then bytes; the same bytes under another subtype differ.
  it('keeps the subtype a $set gives to the same bytes', async () => {
    const coll = db.collection<Loose>('binary_subtype');
    await coll.insertOne({
      _id: 1,
      buf: new Binary(Buffer.from('hi'), 128),
      nested: { buf: new Binary(Buffer.from('hi'), 128) },
    });
    const result = await coll.updateOne(
      { _id: 1 },
      { $set: { buf: new Binary(Buffer.from('hi'), 0), nested: { buf: new Binary(Buffer.from('hi'), 5) } } },
    );
    expect(result.modifiedCount).toBe(1);
    const found = await coll.findOne({ _id: 1 });
    expect((found?.buf as Binary).sub_type).toBe(0);
    expect((found?.nested as { buf: Binary }).buf.sub_type).toBe(5);
    const same = await coll.updateOne({ _id: 1 }, { $set: { buf: new Binary(Buffer.from('hi'), 0) } });
    expect(same.modifiedCount).toBe(0);
  });
});

describe('$where', () => {
  it('is refused as by a MongoDB without server-side JavaScript, for a string and for code, in reads and writes', async () => {
    const coll = db.collection<Loose>('where');
    await coll.insertOne({ _id: 1, a: 1 });
    const expected = { code: 6108304, message: 'no globalScriptEngine in $where parsing' };
    expect(await failure(coll.findOne({ $where: 'this.a == 1' }))).toMatchObject(expected);
    const code = new Code('function () { return true; }'); // BSON code, as drivers send a function
    expect(await failure(db.command({ find: 'where', filter: { $where: code } }))).toMatchObject(expected);
    expect(await failure(coll.countDocuments({ $where: 'true' }))).toMatchObject(expected);
    expect(await failure(coll.deleteMany({ $where: 'true' }))).toMatchObject(expected);
    expect(await coll.countDocuments({})).toBe(1);
  });
});

describe('positional projection', () => {
  // Manual, $ (projection): `<array>.$` returns the first element that matches the query condition on the array.
  it('returns the element the filter matched, by a field condition or an $elemMatch, with or without an index', async () => {
    const coll = db.collection<Loose>('positional_projection');
    await coll.insertMany([
      {
        _id: 1,
        tags: [
          { tag: 'bacon', count: 2 },
          { tag: 'eggs', count: 3 },
        ],
      },
      { _id: 2, tags: [{ tag: 'eggs', count: 1 }] },
    ]);
    const query = () =>
      coll
        .find({ 'tags.tag': 'eggs' }, { projection: { 'tags.$': 1 } })
        .sort({ _id: 1 })
        .toArray();
    const expected = [
      { _id: 1, tags: [{ tag: 'eggs', count: 3 }] },
      { _id: 2, tags: [{ tag: 'eggs', count: 1 }] },
    ];
    expect(await query()).toEqual(expected);
    await coll.createIndex({ 'tags.tag': 1 });
    expect(await query()).toEqual(expected);
    const elemMatch = await coll.findOne(
      { _id: 1, tags: { $elemMatch: { count: { $lt: 3 } } } },
      { projection: { 'tags.$': 1 } },
    );
    expect(elemMatch).toEqual({ _id: 1, tags: [{ tag: 'bacon', count: 2 }] });
  });
});

describe('update paths through values that hold no fields', () => {
  // MongoDB answers PathNotViable (28) "Cannot create field 'b' in element {a: …}" for a field created inside a
  // scalar, null, or an array addressed by a name rather than an index.
  it('refuses to create a field in a scalar, null or an array by name, and accepts an array index', async () => {
    const coll = db.collection<Loose>('path_not_viable');
    await coll.insertOne({ _id: 1, n: 1, none: null, comments: [{ body: 'a' }] });
    for (const update of [
      { $set: { 'n.b': 1 } },
      { $set: { 'none.b': 1 } },
      { $set: { 'comments.body': 'fail' } },
      { $inc: { 'comments.count': 1 } },
    ]) {
      const error = await failure(coll.updateOne({ _id: 1 }, update));
      expect(error).toMatchObject({ code: 28, codeName: 'PathNotViable' });
    }
    const scalar = await failure(coll.updateOne({ _id: 1 }, { $set: { 'n.b': 1 } }));
    expect(scalar.message).toBe("Cannot create field 'b' in element {n: 1}");
    await coll.updateOne({ _id: 1 }, { $set: { 'comments.0.body': 'b', 'new.field': 1 } });
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      n: 1,
      none: null,
      comments: [{ body: 'b' }],
      new: { field: 1 },
    });
  });
});

describe('aggregation', () => {
  it('answers an unknown stage with Location40324 "Unrecognized pipeline stage name", also inside $facet', async () => {
    // MongoDB's error for a stage name it does not know (error code 40324).
    const coll = db.collection<Loose>('unknown_stage');
    await coll.insertOne({ _id: 1 });
    const expected = { code: 40324, message: "Unrecognized pipeline stage name: '$fakeStage'" };
    expect(await failure(coll.aggregate([{ $fakeStage: { name: 'test' } }]).toArray())).toMatchObject(expected);
    expect(await failure(coll.aggregate([{ $facet: { a: [{ $fakeStage: {} }] } }]).toArray())).toMatchObject(expected);
  });
});

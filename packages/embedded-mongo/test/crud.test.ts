import {
  Decimal128,
  Double,
  Int32,
  Long,
  MongoBulkWriteError,
  MongoServerError,
  ObjectId,
  UUID,
  type Db,
} from 'mongodb';
import { serialize } from 'bson';
import { startHarness, type AnyDoc, type Harness } from './helpers';

let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('crud');
});
afterAll(() => harness.stop());

async function serverError(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

describe('CRUD', () => {
  it('inserts, finds with filter/sort/projection/skip/limit, updates and deletes', async () => {
    const items = db.collection<{ _id: number; n: number; tag: string; created?: boolean }>('items');
    await items.insertMany([1, 2, 3, 4, 5].map((n) => ({ _id: n, n, tag: n % 2 ? 'odd' : 'even' })));
    const found = await items
      .find({ tag: 'odd' }, { projection: { n: 1 } })
      .sort({ n: -1 })
      .skip(1)
      .limit(1)
      .toArray();
    expect(found).toEqual([{ _id: 3, n: 3 }]);
    expect(await items.updateMany({ tag: 'even' }, { $inc: { n: 10 } })).toMatchObject({
      matchedCount: 2,
      modifiedCount: 2,
    });
    expect(await items.findOne({ _id: 4 })).toEqual({ _id: 4, n: 14, tag: 'even' });
    const upsert = await items.updateOne(
      { _id: 9 },
      { $set: { n: 9 }, $setOnInsert: { created: true } },
      { upsert: true },
    );
    expect(upsert.upsertedId).toBe(9);
    expect(await items.findOne({ _id: 9 })).toEqual({ _id: 9, n: 9, created: true });
    expect((await items.deleteMany({ n: { $gte: 9 } })).deletedCount).toBe(3);
    expect(await items.countDocuments()).toBe(3);
    expect((await items.distinct('tag')).sort()).toEqual(['odd']);
  });

  it('runs aggregation pipelines with $lookup and $out', async () => {
    await db.collection<AnyDoc>('authors').insertMany([{ _id: 'a1', name: 'Ann' }]);
    await db.collection<AnyDoc>('books').insertMany([
      { title: 'T1', author: 'a1' },
      { title: 'T2', author: 'a1' },
    ]);
    const [joined] = await db
      .collection('books')
      .aggregate([
        { $group: { _id: '$author', count: { $sum: 1 } } },
        { $lookup: { from: 'authors', localField: '_id', foreignField: '_id', as: 'who' } },
        { $out: 'summary' },
      ])
      .toArray()
      .then(() => db.collection<AnyDoc>('summary').find().toArray());
    expect(joined).toMatchObject({ _id: 'a1', count: 2, who: [{ name: 'Ann' }] });
  });

  it('enforces unique, compound, sparse and partial indexes', async () => {
    const users = db.collection<AnyDoc>('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.createIndex({ org: 1, login: 1 }, { unique: true });
    await users.createIndex({ nick: 1 }, { unique: true, sparse: true });
    await users.createIndex({ code: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await users.insertMany([
      { email: 'a', org: 1, login: 'x', code: 7, active: true },
      { email: 'b', org: 2, login: 'x', code: 7 },
    ]);
    const duplicate = await serverError(users.insertOne({ email: 'a', org: 3, login: 'y' }));
    expect(duplicate.code).toBe(11000);
    expect(duplicate.keyPattern).toEqual({ email: 1 });
    expect(duplicate.keyValue).toEqual({ email: 'a' });
    expect((await serverError(users.insertOne({ email: 'c', org: 1, login: 'x' }))).keyValue).toEqual({
      org: 1,
      login: 'x',
    });
    expect((await serverError(users.insertOne({ email: 'd', code: 7, active: true }))).code).toBe(11000);
    expect((await serverError(users.updateOne({ email: 'b' }, { $set: { email: 'a' } }))).code).toBe(11000);
    const names = (await users.listIndexes().toArray()).map((index) => index.name);
    expect(names).toEqual(['_id_', 'email_1', 'org_1_login_1', 'nick_1', 'code_1']);
  });

  it('projects top-level inclusions in the document order, _id first, number types and nested values kept', async () => {
    const picked = db.collection<AnyDoc>('picked');
    await picked.insertOne({ z: 1, _id: 7, b: new Long(5), a: { c: [new Int32(2)] }, skip: 'x', n: null });
    const raw = { promoteValues: false };
    const find = (projection: AnyDoc) => picked.findOne({ _id: 7 }, { projection, ...raw });
    const kept = await find({ n: true, a: 1, b: 1, missing: 1 });
    expect(Object.keys(kept!)).toEqual(['_id', 'b', 'a', 'n']);
    expect(kept!.b).toBeInstanceOf(Long);
    expect((kept!.a as { c: unknown[] }).c[0]).toBeInstanceOf(Int32);
    expect(await picked.findOne({ _id: 7 }, { projection: { _id: 0, z: 1, skip: 2 } })).toEqual({ z: 1, skip: 'x' });
    expect(Object.keys((await find({ _id: 1, skip: 1 }))!)).toEqual(['_id', 'skip']);
  });

  it('reports writeErrors with ordered and unordered semantics', async () => {
    const batch = db.collection<AnyDoc>('batch');
    const docs = [{ _id: 1 }, { _id: 1 }, { _id: 2 }];
    const ordered = (await batch.insertMany(docs).catch((error: unknown) => error)) as MongoBulkWriteError;
    expect(ordered.writeErrors).toHaveLength(1);
    expect(await batch.countDocuments()).toBe(1);
    await batch.deleteMany({});
    const unordered = (await batch
      .insertMany(docs, { ordered: false })
      .catch((error: unknown) => error)) as MongoBulkWriteError;
    expect(unordered.code).toBe(11000);
    expect(await batch.countDocuments()).toBe(2);
  });

  it('keeps BSON number types and answers $type queries by BSON type name', async () => {
    const typed = db.collection<{ _id: number; i: Int32; d: Double; l: Long; dec: Decimal128; o: ObjectId }>('typed');
    await typed.insertOne({
      _id: 1,
      i: new Int32(1),
      d: new Double(1),
      l: Long.fromNumber(1),
      dec: Decimal128.fromString('1.5'),
      o: new ObjectId(),
    });
    await typed.updateOne({ _id: 1 }, { $inc: { l: 1, d: 1 } });
    const raw = await typed.findOne({ _id: 1 }, { promoteValues: false });
    expect(raw).toMatchObject({ i: new Int32(1), d: new Double(2), l: Long.fromNumber(2) });
    const fieldsOfType = async (type: string): Promise<string[]> => {
      const fields = ['i', 'd', 'l', 'dec', 'o'];
      const counts = await Promise.all(fields.map((field) => typed.countDocuments({ [field]: { $type: type } })));
      return fields.filter((_, index) => counts[index] > 0);
    };
    expect(await fieldsOfType('int')).toEqual(['i']);
    expect(await fieldsOfType('double')).toEqual(['d']);
    expect(await fieldsOfType('long')).toEqual(['l']);
    expect(await fieldsOfType('number')).toEqual(['i', 'd', 'l', 'dec']);
    expect(await fieldsOfType('objectId')).toEqual(['o']);
  });

  it('returns stored documents byte for byte as they were written, in every batch of a cursor', async () => {
    // A find without projection sends the bytes kept beside each stored version (src/wire/reply-bson.ts).
    const stored = db.collection<AnyDoc>('as-stored');
    const written = Array.from({ length: 5 }, (_, n) => ({
      _id: n,
      i: new Int32(n),
      d: new Double(n),
      negativeZero: new Double(-0),
      l: Long.fromNumber(n),
      dec: Decimal128.fromString(`${n}.5`),
      nested: { z: 'last first', a: [new Double(1), { b: null }], at: new Date(n) },
      uuid: new UUID(),
    }));
    await stored.insertMany(written);
    await stored.updateOne({ _id: 3 }, { $inc: { l: 1 } as never });
    written[3].l = Long.fromNumber(4);
    const raw = await stored.find({}, { raw: true, batchSize: 2, sort: { _id: 1 } }).toArray();
    expect(raw.map((bytes) => Buffer.from(bytes as unknown as Uint8Array))).toEqual(
      written.map((doc) => Buffer.from(serialize(doc))),
    );
  });

  it('serves read-only views and refuses writes to them', async () => {
    await db.collection<AnyDoc>('source').insertMany([
      { _id: 1, x: 11 },
      { _id: 2, x: 22 },
      { _id: 3, x: 33 },
    ]);
    await db.createCollection('bigX', { viewOn: 'source', pipeline: [{ $match: { x: { $gt: 11 } } }] });
    const view = db.collection<AnyDoc>('bigX');
    expect(await view.estimatedDocumentCount()).toBe(2);
    expect(await view.find({ x: 33 }).toArray()).toEqual([{ _id: 3, x: 33 }]);
    expect((await serverError(view.insertOne({ x: 1 }))).code).toBe(166);
  });

  it('accepts null as an _id, also from an upsert', async () => {
    await db.collection<{ _id: null }>('nullIds').updateOne({ _id: null }, { $set: { seen: true } }, { upsert: true });
    expect(await db.collection('nullIds').find().toArray()).toEqual([{ _id: null, seen: true }]);
  });

  it('uses indexes for equality and range lookups', async () => {
    const big = db.collection<AnyDoc>('big');
    await big.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: i, k: i % 100, v: i })));
    await big.createIndex({ v: 1 });
    expect(await big.countDocuments({ v: { $gte: 10, $lt: 20 } })).toBe(10);
    expect(await big.find({ v: { $in: [5, 1999] } }).toArray()).toHaveLength(2);
    expect(await big.countDocuments({ k: 3 })).toBe(20);
  });
});

describe('errors', () => {
  it('answers unknown commands with CommandNotFound', async () => {
    const error = await serverError(db.command({ noSuchCommand: 1 }));
    expect([error.code, error.codeName]).toEqual([59, 'CommandNotFound']);
  });

  it('answers listIndexes on a missing collection with NamespaceNotFound', async () => {
    expect((await serverError(db.collection<AnyDoc>('missing').indexes())).code).toBe(26);
  });

  it('answers unknown query operators with BadValue', async () => {
    expect(
      (
        await serverError(
          db
            .collection<AnyDoc>('items')
            .find({ a: { $nope: 1 } })
            .toArray(),
        )
      ).code,
    ).toBe(2);
  });

  it('answers getMore on an unknown cursor with CursorNotFound', async () => {
    expect((await serverError(db.command({ getMore: Long.fromNumber(424242), collection: 'items' }))).code).toBe(43);
  });

  it('refuses transactions on a standalone with IllegalOperation', async () => {
    const command = {
      insert: 'tx',
      documents: [{}],
      lsid: { id: new UUID() },
      txnNumber: Long.fromNumber(1),
      startTransaction: true,
      autocommit: false,
    };
    expect((await serverError(db.command(command))).code).toBe(20);
  });

  it('rejects documents failing the collection validator with DocumentValidationFailure', async () => {
    await db.createCollection('validated', { validator: { qty: { $gte: 0 } } });
    const validated = db.collection<AnyDoc>('validated');
    expect((await serverError(validated.insertOne({ qty: -1 }))).code).toBe(121);
    await validated.insertOne({ qty: -1 }, { bypassDocumentValidation: true });
    await db.command({ collMod: 'validated', validator: { qty: { $gte: 10 } } });
    expect((await serverError(validated.insertOne({ qty: 5 }))).code).toBe(121);
  });

  it('enforces $jsonSchema validators with bsonType', async () => {
    const schema = {
      bsonType: 'object',
      required: ['name'],
      properties: { name: { bsonType: 'string' }, age: { bsonType: 'int', minimum: 0 } },
    };
    await db.createCollection('schemed', { validator: { $jsonSchema: schema } });
    const schemed = db.collection('schemed');
    await schemed.insertOne({ name: 'ann', age: 3 });
    expect((await serverError(schemed.insertOne({ age: 3 }))).code).toBe(121);
    expect((await serverError(schemed.insertOne({ name: 'bob', age: new Double(3) }))).code).toBe(121);
  });

  it('rejects documents over 16 MiB produced by an update', async () => {
    await db.collection<AnyDoc>('large').insertOne({ _id: 1 });
    const error = await serverError(
      db.collection<AnyDoc>('large').updateOne({ _id: 1 }, { $set: { blob: 'x'.repeat(16 * 1024 * 1024) } }),
    );
    expect(error.code).toBe(10334);
  });

  it('refuses $inc and $mul on non-numeric fields or with non-numeric arguments with TypeMismatch, changing nothing', async () => {
    const counters = db.collection('counters');
    await counters.insertOne({ _id: 1 as never, n: 'seven', m: 2, nested: { k: 'x' } });
    const onString = await serverError(counters.updateOne({ _id: 1 as never }, { $inc: { n: 1 } }));
    expect([onString.code, onString.codeName]).toEqual([14, 'TypeMismatch']);
    expect(onString.message).toBe(
      "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 'n' of non-numeric type string",
    );
    expect((await serverError(counters.updateOne({ _id: 1 as never }, { $mul: { 'nested.k': 2 } }))).code).toBe(14);
    const badArgument = await serverError(counters.updateOne({ _id: 1 as never }, { $inc: { m: 'one' as never } }));
    expect(badArgument.message).toBe('Cannot increment with non-numeric argument: {m: "one"}');
    await counters
      .updateOne({ _id: 1 as never }, { $inc: { m: 1, fresh: 2 }, $mul: { nested: 1 as never } })
      .catch(() => undefined);
    await counters.updateOne({ _id: 1 as never }, { $inc: { m: new Long(1), fresh: 2 } });
    expect(await counters.findOne({ _id: 1 as never })).toEqual({
      _id: 1,
      n: 'seven',
      m: 3,
      nested: { k: 'x' },
      fresh: 2,
    });
  });
});

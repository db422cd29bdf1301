import { Binary, Code, DBRef, Long, ObjectId, UUID, type Collection } from 'mongodb';
import { startHarness, failure, type Harness } from './helpers';

/** Bytes that are not UTF-8: each decodes to U+FFFD, so a key made of their decoding is the same for all. */
const bin = (...bytes: number[]): Binary => new Binary(Buffer.from(bytes));

type IdDoc = { _id: Binary | Code | DBRef | Long | number | { k: Binary }; [field: string]: unknown };

describe('values MongoDB tells apart keep distinct keys', () => {
  let harness: Harness;
  let collection: Collection<IdDoc>;
  let name = 0;

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.stop());
  beforeEach(() => {
    collection = harness.client.db('binkey').collection<IdDoc>(`c${name++}`);
  });

  it('stores binary _ids that differ in bytes or subtype, and finds, updates and deletes each by its _id', async () => {
    const ids = [bin(0x80), bin(0x81), new Binary(Buffer.from([0x80]), 5), bin(0xff, 0xfe)];
    await collection.insertMany(ids.map((_id, n) => ({ _id, n })));
    for (const [n, _id] of ids.entries()) expect(await collection.find({ _id }).toArray()).toEqual([{ _id, n }]);
    expect(await collection.updateOne({ _id: bin(0x81) }, { $set: { n: 10 } })).toMatchObject({ matchedCount: 1 });
    expect(await collection.deleteOne({ _id: bin(0x80) })).toMatchObject({ deletedCount: 1 });
    expect(await collection.find().sort({ n: 1 }).toArray()).toEqual([
      { _id: ids[2], n: 2 },
      { _id: ids[3], n: 3 },
      { _id: ids[1], n: 10 },
    ]);
    const duplicate = await failure(collection.insertOne({ _id: bin(0x81) }));
    expect(duplicate.code).toBe(11000);
  });

  it('keeps a unique index on a binary field from taking distinct bytes for duplicates', async () => {
    await collection.createIndex({ token: 1 }, { unique: true });
    await collection.insertMany([
      { _id: 1, token: bin(0x80) },
      { _id: 2, token: bin(0x81) },
    ]);
    expect(await collection.find({ token: bin(0x81) }).toArray()).toEqual([{ _id: 2, token: bin(0x81) }]);
    expect((await failure(collection.insertOne({ _id: 3, token: bin(0x80) }))).code).toBe(11000);
  });

  it('tells apart _id documents holding distinct binaries', async () => {
    await collection.insertMany([
      { _id: { k: bin(0x80) }, n: 1 },
      { _id: { k: bin(0x81) }, n: 2 },
    ]);
    expect(await collection.find({ _id: { k: bin(0x81) } }).toArray()).toEqual([{ _id: { k: bin(0x81) }, n: 2 }]);
    expect(await collection.deleteOne({ _id: { k: bin(0x80) } })).toMatchObject({ deletedCount: 1 });
    expect(await collection.find().toArray()).toEqual([{ _id: { k: bin(0x81) }, n: 2 }]);
  });

  it('keys UUIDs by subtype and bytes: legacy (subtype 3) ids apart, a UUID apart from the same bytes of subtype 3', async () => {
    const uuid = new UUID('90909090-9090-9090-9090-909090909090');
    const legacy = new Binary(Buffer.alloc(16, 0x90), Binary.SUBTYPE_UUID_OLD);
    const otherLegacy = new Binary(Buffer.alloc(16, 0x91), Binary.SUBTYPE_UUID_OLD);
    await collection.insertMany([
      { _id: uuid, n: 1 },
      { _id: legacy, n: 2 },
      { _id: otherLegacy, n: 3 },
    ]);
    expect(await collection.find({ _id: uuid }).toArray()).toEqual([{ _id: uuid, n: 1 }]);
    expect(await collection.find({ _id: otherLegacy }).toArray()).toEqual([{ _id: otherLegacy, n: 3 }]);
    expect(await collection.countDocuments({ _id: { $in: [legacy, otherLegacy] } })).toBe(2);
  });

  it('keeps apart ±Infinity, int64s beyond 2^53, Code values and DBRefs', async () => {
    const ids = [
      Infinity,
      -Infinity,
      Long.fromString('9007199254740993'),
      Long.fromString('9007199254740992'),
      new Code('a'),
      new Code('b'),
      new DBRef('a', new ObjectId('000000000000000000000001')),
      new DBRef('a', new ObjectId('000000000000000000000002')),
    ];
    await collection.insertMany(ids.map((_id) => ({ _id })));
    expect(await collection.countDocuments()).toBe(ids.length);
    // An int64 and a double of the same value are equal in MongoDB, and stay one key.
    expect((await failure(collection.insertOne({ _id: 2 ** 53 }))).code).toBe(11000);
  });
});

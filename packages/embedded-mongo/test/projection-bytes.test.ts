import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  Decimal128,
  deserialize,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  serialize,
  Timestamp,
  UUID,
  type Document,
} from 'bson';
import fc from 'fast-check';
import type { Db } from 'mongodb';
import { fromBson, toBson } from '../src/bson/codec';
import { elementPick, pickElements } from '../src/bson/picked-elements';
import { fieldInclusion, pickFields } from '../src/ops/field-projection';
import { withInheritedTypes } from '../src/ops/result-types';
import type { Doc } from '../src/types';
import { startHarness, type AnyDoc, type Harness } from './helpers';

/*
 * A projection of top-level fields is answered from the stored document's BSON (src/bson/picked-elements.ts): the
 * bytes must be those of the document picked and serialized again (the path every other projection takes), and those
 * a driver gets by picking the fields of the whole document it reads.
 */

/** One field of every BSON type a document can store (DBPointer has no class in js-bson to write it with). */
const EVERY_TYPE: Document = {
  _id: new ObjectId('65a1b2c3d4e5f60718293a4b'),
  double: 1.5,
  integralDouble: new Double(3),
  negativeZero: new Double(-0),
  string: 'plain',
  unicode: 'Zoë 🌿 名前',
  empty: '',
  nested: { z: 'last first', a: [new Double(1), { b: null }], at: new Date(5) },
  array: [1, 'two', [3, [4]], { five: 5 }],
  binary: new Binary(Buffer.from([0, 1, 2, 255]), 0x80),
  uuid: new UUID('2a3b4c5d-6e7f-4081-92a3-b4c5d6e7f809'),
  bool: false,
  date: new Date(Date.UTC(2026, 10, 27)),
  nothing: null,
  regex: new BSONRegExp('^a.c$', 'im'),
  code: new Code('function () { return 1; }'),
  codeWithScope: new Code('function () { return x; }', { x: 2 }),
  symbol: new BSONSymbol('sym'),
  int32: new Int32(-7),
  timestamp: new Timestamp({ t: 1_700_000_000, i: 3 }),
  long: Long.fromNumber(42),
  bigLong: Long.fromString('9223372036854775807'),
  decimal: Decimal128.fromString('12.50'),
  min: new MinKey(),
  max: new MaxKey(),
};

/** The bytes the server keeps for a document a client wrote: read as the server reads it, then serialized. */
const storedVersion = (doc: Document): Buffer => toBson(fromBson(serialize(doc)));

/** The path of every other projection: the stored document decoded, its fields picked, serialized again. */
function reserialized(stored: Buffer, projection: Doc): Buffer {
  const doc = fromBson(stored);
  const inclusion = fieldInclusion(projection);
  if (!inclusion) throw new Error('not a plain inclusion');
  return toBson(withInheritedTypes(doc, pickFields(doc, inclusion)) as Doc);
}

function copied(stored: Buffer, projection: Doc): Buffer {
  const inclusion = fieldInclusion(projection);
  if (!inclusion) throw new Error('not a plain inclusion');
  return pickElements(stored, elementPick(inclusion.fields, inclusion.withId)).toBuffer();
}

/** What a client expects: the whole document's elements it asked for, `_id` first, the others in stored order. */
function pickedByClient(whole: Uint8Array, projection: Doc): Buffer {
  const doc = deserialize(whole, { promoteValues: false, promoteBuffers: false, bsonRegExp: true });
  const withId = projection._id !== 0 && projection._id !== false;
  const wanted = (key: string): boolean => (key === '_id' ? withId : Boolean(projection[key]));
  const picked: Document = withId && '_id' in doc ? { _id: doc._id } : {};
  for (const key of Object.keys(doc)) if (key !== '_id' && wanted(key)) picked[key] = doc[key];
  return Buffer.from(serialize(picked));
}

const SHAPES: Doc[] = [
  { double: 1 },
  { string: 1, unicode: true, empty: 1 },
  { nested: 1, array: 1 },
  { max: 1, binary: 1, uuid: 1, min: 1 },
  { regex: 1, code: 1, codeWithScope: 1, symbol: 1, timestamp: 1 },
  { int32: 1, long: 1, bigLong: 1, decimal: 1, integralDouble: 1, negativeZero: 1 },
  { bool: 1, date: 1, nothing: 1 },
  { _id: 0, double: 1, nested: 1 },
  { _id: 1, missing: 1 },
  { missing: 1, alsoMissing: 1 },
  { _id: 0, missing: 1 },
  Object.fromEntries(Object.keys(EVERY_TYPE).map((key) => [key, 1])),
];

describe('a projection of top-level fields copied from the stored BSON', () => {
  const stored = storedVersion(EVERY_TYPE);

  it.each(SHAPES.map((projection) => [JSON.stringify(projection), projection]))(
    'gives the bytes of the document picked and serialized again: %s',
    (_name, projection) => {
      expect(copied(stored, projection)).toEqual(reserialized(stored, projection));
      expect(copied(stored, projection)).toEqual(pickedByClient(stored, projection));
    },
  );

  it('keeps the stored order, in which integer-like names come before _id as in any JS object', () => {
    const doc = storedVersion({ _id: 1, b: 'b', 10: 'ten', a: 'a', 2: 'two' });
    expect(deserialize(copied(doc, { a: 1, 10: 1, 2: 1 }))).toEqual({ 2: 'two', 10: 'ten', _id: 1, a: 'a' });
    expect(copied(doc, { a: 1, 10: 1, 2: 1 })).toEqual(reserialized(doc, { a: 1, 10: 1, 2: 1 }));
    expect(copied(doc, { a: 1, 10: 1, 2: 1 })).toEqual(pickedByClient(doc, { a: 1, 10: 1, 2: 1 }));
  });

  it('keeps field names that are not ASCII, and does not mistake a name for its prefix', () => {
    const doc = storedVersion({ _id: 1, ключ: 'k', ключ2: 'k2', k: 'short', kk: 'long' });
    expect(copied(doc, { ключ: 1, k: 1 })).toEqual(reserialized(doc, { ключ: 1, k: 1 }));
    expect(deserialize(copied(doc, { ключ: 1, k: 1 }))).toEqual({ _id: 1, ключ: 'k', k: 'short' });
  });
});

/** Values of every type (numbers of the three number types), nested up to two levels. */
const scalar = fc.oneof(
  fc.integer().map((n) => new Int32(n)),
  fc.double({ noNaN: true }).map((n) => new Double(n)),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => Long.fromBigInt(n)),
  fc.string({ unit: 'grapheme' }),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true }),
  fc.uint8Array({ maxLength: 8 }).map((bytes) => new Binary(bytes)),
  fc.constant(new ObjectId('65a1b2c3d4e5f60718293a4b')),
  fc.constant(Decimal128.fromString('-0.001')),
  fc.constant(new BSONRegExp('x+', 'i')),
  fc.constant(new Timestamp({ t: 7, i: 9 })),
  fc.constant(new MinKey()),
);
const value = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('doc')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  doc: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('value'), { maxKeys: 3 }),
})).value;
/** Names include integer-like ones (a JS object lists them first) and non-ASCII ones. */
const NAMES = ['a', 'b', 'name', 'price', '1', '20', 'é', 'zz', 'ab'];
const documents = fc.record({
  _id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 })),
  fields: fc.dictionary(fc.constantFrom(...NAMES), value, { maxKeys: NAMES.length }),
});
const projections = fc.record({
  fields: fc.uniqueArray(fc.constantFrom(...NAMES, 'missing'), { minLength: 1, maxLength: 5 }),
  id: fc.constantFrom<number | boolean | undefined>(undefined, 1, 0, true, false),
});

describe('the copied projection against the decoding path (property, fixed seed)', () => {
  it('gives the same bytes for random documents and random top-level inclusions', () => {
    fc.assert(
      fc.property(documents, projections, ({ _id, fields }, { fields: included, id }) => {
        const stored = storedVersion({ _id, ...fields });
        const projection: Doc = Object.fromEntries(included.map((field) => [field, 1]));
        if (id !== undefined) projection._id = id;
        expect(copied(stored, projection)).toEqual(reserialized(stored, projection));
        expect(copied(stored, projection)).toEqual(pickedByClient(stored, projection));
      }),
      { seed: 23, numRuns: 500 },
    );
  });
});

describe('replies of projected reads', () => {
  let harness: Harness;
  let db: Db;

  beforeAll(async () => {
    harness = await startHarness();
    db = harness.client.db('projection_bytes');
    const docs = Array.from({ length: 7 }, (_, n) => ({ ...EVERY_TYPE, _id: n, rank: new Int32(n) }));
    await db.collection<AnyDoc>('every_type').insertMany(docs);
    await db
      .collection<AnyDoc>('every_type')
      .updateOne({ _id: 3 }, { $set: { added: 'after' }, $unset: { string: '' } });
  });
  afterAll(() => harness.stop());

  /** Each document whole, as stored, by `_id`. */
  async function wholeDocuments(): Promise<Map<number, Uint8Array>> {
    const whole = (await db.collection<AnyDoc>('every_type').find({}, { raw: true }).toArray()) as unknown[];
    return new Map((whole as Uint8Array[]).map((bytes) => [deserialize(bytes)._id as number, bytes]));
  }

  it.each([
    [{ string: 1, nested: 1, long: 1, added: 1 }],
    [{ _id: 0, decimal: 1, array: 1, codeWithScope: 1 }],
    [{ missing: 1 }],
    [{ _id: false, max: true, int32: 1 }],
  ])('find and its getMores send the bytes a client would pick from the whole document: %j', async (projection) => {
    const whole = await wholeDocuments();
    const cursor = db
      .collection<AnyDoc>('every_type')
      .find({ rank: { $gte: 0 } }, { projection, raw: true, batchSize: 2 });
    const raw = (await cursor.sort({ rank: 1 }).toArray()) as unknown as Uint8Array[];
    const expected = [...whole.keys()].sort().map((id) => pickedByClient(whole.get(id) as Uint8Array, projection));
    expect(raw.map((bytes) => Buffer.from(bytes))).toEqual(expected);
  });

  it('projects through an index plan and a collection scan alike', async () => {
    await db.collection<AnyDoc>('every_type').createIndex({ rank: 1 });
    const projection = { rank: 1, unicode: 1 };
    const read = async (hint: Document): Promise<Buffer[]> => {
      const cursor = db.collection<AnyDoc>('every_type').find({ rank: { $lt: 4 } }, { projection, hint, raw: true });
      return ((await cursor.toArray()) as unknown as Uint8Array[]).map((bytes) => Buffer.from(bytes));
    };
    const byIndex = await read({ rank: 1 });
    expect(byIndex).toEqual(await read({ $natural: 1 }));
    expect(byIndex.map((bytes) => deserialize(bytes))).toEqual(
      [0, 1, 2, 3].map((n) => ({ _id: n, unicode: EVERY_TYPE.unicode, rank: n })),
    );
  });
});

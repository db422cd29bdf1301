import { Binary, Decimal128, Int32, ObjectId } from 'bson';
import { comparableBinary } from '../src/bson/comparable-binary';
import { keyFieldsUnchanged, topLevelFields } from '../src/indexes/unchanged-fields';
import { Collection } from '../src/storage/collection';
import { MemoryStore } from '../src/storage/store';

/** A replace skips an index's keys only when its key fields are certainly unchanged; anything unsure compares keys. */
describe('keyFieldsUnchanged', () => {
  const id = new ObjectId();
  const at = new Date(1_700_000_000_000);
  /** BinData as the server's thread decodes it. */
  const binData = (bytes: number[], subtype = 0) => comparableBinary(new Binary(Buffer.from(bytes), subtype));
  const same = (a: unknown, b: unknown, fields = ['f']) => keyFieldsUnchanged({ f: a, x: 1 }, { f: b, x: 2 }, fields);

  it('shows equal values of the key fields as unchanged, whatever else changed', () => {
    expect(same(['palm', 'pal', 'p'], ['palm', 'pal', 'p'])).toBe(true);
    expect(same({ a: 1, b: [id] }, { a: 1, b: [new ObjectId(id.toHexString())] })).toBe(true);
    expect(same(at, new Date(at.getTime()))).toBe(true);
    expect(same(undefined, undefined, topLevelFields(['missing.path']))).toBe(true);
    expect(same(binData([0x80]), binData([0x80]))).toBe(true);
  });

  it('never shows a change of a key field as unchanged', () => {
    expect(same(['palm', 'pal'], ['pal', 'palm'])).toBe(false);
    expect(same({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(same(new ObjectId(), id)).toBe(false);
    expect(same(at, new Date(at.getTime() + 1))).toBe(false);
    expect(same(1, '1')).toBe(false);
    expect(same(binData([0x80]), binData([0x81]))).toBe(false);
    expect(same(binData([0x80]), binData([0x80], 5))).toBe(false);
    expect(same([1], { 0: 1 })).toBe(false);
    expect(keyFieldsUnchanged({ f: undefined }, {}, ['f'])).toBe(false);
  });

  it('leaves values it cannot compare to the key comparison', () => {
    expect(same(new Int32(5), new Int32(5))).toBe(false);
    expect(same(Decimal128.fromString('1.5'), Decimal128.fromString('1.5'))).toBe(false);
    expect(same(Number.NaN, Number.NaN)).toBe(false);
  });

  it('keeps a multikey index right across replaces that change its keys or only other fields', () => {
    const collection = new Collection('db', 'keyed', {}, new MemoryStore());
    collection.createIndex({ v: 2, key: { keys: 1, price: 1 }, name: 'keys_price' });
    const versions = [
      { _id: 1, keys: ['a', 'b'], price: 5, stock: 1 },
      { _id: 1, keys: ['a', 'b'], price: 5, stock: 0 },
      { _id: 1, keys: ['b', 'c'], price: 5, stock: 0 },
    ];
    collection.insert(versions[0]);
    collection.replace(versions[0], versions[1]);
    collection.replace(versions[1], versions[2]);
    const index = collection.indexes.get('keys_price');
    const holding = (key: string) => index?.scan({ value: key, inclusive: true }, { value: key, inclusive: true });
    expect([holding('a'), holding('b'), holding('c')].map((ids) => ids?.length)).toEqual([0, 1, 1]);
  });
});

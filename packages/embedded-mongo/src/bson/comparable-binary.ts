import { Binary as BsonBinary } from 'bson';

type Encoding = 'hex' | 'base64' | 'utf8' | 'utf-8';

/**
 * mingo's one extension point for values of classes it does not know is their `toString()`: it compares them by it
 * (`isEqual`: the filters' `$eq`, `$all`, …; `compare`: sort, `$lt`, `$min`, index order) once their constructors
 * match, and buckets them by constructor and own fields (`$in`, `$group`, `$addToSet`, `distinct`). bson's
 * `toString()` decodes the bytes as UTF-8, where distinct bytes that are not UTF-8 read alike and the order is not
 * MongoDB's. Every BinData the server's thread decodes (`codec.ts`) is therefore one of these: a bson `Binary`
 * whose `toString()` without an encoding spells MongoDB's order of BinData, length first, then subtype, then the
 * bytes (unsigned): the length in 8 hex digits (BSON caps a value at 16 MiB), the subtype in 2, the bytes in hex.
 * Equal strings mean equal subtype and bytes. A 16-byte subtype-4 value, which bson decodes as a `UUID` (another
 * class, its own `toString()`), becomes one as well, so UUIDs compare and sort among the other BinData.
 * The class is named `Binary`: mingo's `typeOf`, and this server's code after it, name a value by its class.
 */
class Binary extends BsonBinary {
  override toString(encoding?: Encoding): string {
    if (encoding !== undefined) return super.toString(encoding);
    const length = this.position.toString(16).padStart(8, '0');
    return `${length}${this.sub_type.toString(16).padStart(2, '0')}${super.toString('hex')}`;
  }

  /** Same subtype and bytes (`unchanged-fields` asks BSON values this before it leaves their index keys as they are). */
  equals(other: unknown): boolean {
    return (
      other instanceof Binary && other.sub_type === this.sub_type && Buffer.compare(this.value(), other.value()) === 0
    );
  }
}

export { Binary as ComparableBinary };

/** The value as the server's thread handles BinData (the bytes are shared, not copied). */
export function comparableBinary(value: BsonBinary): BsonBinary {
  if (value instanceof Binary) return value;
  return new Binary(value.buffer.subarray(0, value.position), value.sub_type);
}

/** A BinData value as MongoDB prints it in messages and explain output: `BinData(0, 80FF)`. */
export function binDataText(value: BsonBinary): string {
  return `BinData(${value.sub_type}, ${value.toString('hex').toUpperCase()})`;
}

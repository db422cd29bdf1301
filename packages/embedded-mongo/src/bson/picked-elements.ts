/*
 * An inclusion projection of top-level fields answered from a stored version's BSON: the included elements' bytes
 * are copied as they are, with no decoding or encoding (the storefront's finds all project top-level fields, and
 * measuring and serializing their documents again was most of a reply's encoding).
 */

/** The names of the top-level fields an inclusion keeps, `_id` among them unless excluded, as UTF-8 bytes. */
export interface ElementPick {
  names: Uint8Array[];
}

export function elementPick(fields: string[], withId: boolean): ElementPick {
  const names = withId ? ['_id', ...fields] : fields;
  return { names: names.map((name) => Buffer.from(name, 'utf8')) };
}

/** The little-endian int32 at `at` (Buffer's `readInt32LE` checks its arguments on every call). */
const int32At = (bytes: Buffer, at: number): number =>
  bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);

/**
 * Where the value starting at `at` ends, for a value of `type`. A switch on the type byte: table and set look-ups per
 * element made the walk over a storefront entry's 33 elements about 1.8 times as slow (measured).
 */
function valueEnd(bytes: Buffer, type: number, at: number): number {
  switch (type) {
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // MaxKey
    case 0xff: // MinKey
      return at;
    case 0x08: // boolean
      return at + 1;
    case 0x10: // int32
      return at + 4;
    case 0x01: // double
    case 0x09: // UTC datetime
    case 0x11: // timestamp
    case 0x12: // int64
      return at + 8;
    case 0x07: // ObjectId
      return at + 12;
    case 0x13: // decimal128
      return at + 16;
    case 0x03: // document, array, code with scope: the value starts with its own length, those 4 bytes counted
    case 0x04:
    case 0x0f:
      return at + int32At(bytes, at);
    case 0x02: // string, JavaScript code, symbol: a byte count (the terminating zero included), then the bytes
    case 0x0d:
    case 0x0e:
      return at + 4 + int32At(bytes, at);
    case 0x05: // binary: length, subtype, bytes
      return at + 4 + 1 + int32At(bytes, at);
    case 0x0b: // regex: pattern and flags cstrings
      return bytes.indexOf(0, bytes.indexOf(0, at) + 1) + 1;
    case 0x0c: // DBPointer: string, ObjectId
      return at + 4 + int32At(bytes, at) + 12;
  }
  throw new Error(`unknown BSON element type 0x${type.toString(16)} in a stored document`);
}

/**
 * A document made of the picked top-level elements of a stored document: runs of the stored bytes, copied into a
 * reply when it is written (`writeInto`). Nothing is allocated or copied when the pick is made: a buffer of its own
 * per picked document (a slice of Node's 8 KiB pool, a new pool every few documents) and the copy into it were about
 * half of an aggregate's CPU for a listing page of 20 storefront entries (profiled; bench README, `dbpage`). The
 * stored bytes are never written (a new version gets new bytes), so the runs stay valid as long as they are held.
 */
export class PickedElements {
  constructor(
    private readonly source: Buffer,
    /** Start and end offsets in `source` of each run of adjacent picked elements. */
    private readonly runs: number[],
    /** The picked document's BSON size. */
    readonly byteLength: number,
  ) {}

  /** Writes the document's BSON (its length, the runs, the terminating zero) into `out` at `at`; returns its end. */
  writeInto(out: Buffer, at: number): number {
    let written = out.writeInt32LE(this.byteLength, at);
    for (let i = 0; i < this.runs.length; i += 2)
      written += this.source.copy(out, written, this.runs[i], this.runs[i + 1]);
    out[written] = 0;
    return written + 1;
  }

  /** The document's BSON in a buffer of its own. */
  toBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.byteLength);
    this.writeInto(out, 0);
    return out;
  }
}

/**
 * The document `bytes` holds with only the picked top-level elements, in stored order, each element's bytes
 * unchanged. `_id` comes first as MongoDB returns it because it is stored first: the server stores documents as JS
 * objects serialize, `_id` first but after any integer-like names (which a JS object lists first, and so does the
 * decoding path's pick). Names are compared as bytes and adjacent picked elements kept as one run: decoding each name
 * and copying each element were most of the cost (measured with a storefront entry).
 */
export function pickElements(bytes: Uint8Array, pick: ElementPick): PickedElements {
  const source = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const runs: number[] = [];
  let length = 4 + 1;
  for (let at = 4; source[at] !== 0;) {
    let nameEnd = at + 1;
    while (source[nameEnd] !== 0) nameEnd++;
    const end = valueEnd(source, source[at], nameEnd + 1);
    if (isPicked(source, at + 1, nameEnd, pick.names)) {
      if (runs.length > 0 && runs[runs.length - 1] === at) runs[runs.length - 1] = end;
      else runs.push(at, end);
      length += end - at;
    }
    at = end;
  }
  return new PickedElements(source, runs, length);
}

/** Whether the name in `source` from `start` to `end` is one of `names`. */
function isPicked(source: Buffer, start: number, end: number, names: Uint8Array[]): boolean {
  const length = end - start;
  for (const name of names) {
    if (name.length !== length) continue;
    let i = 0;
    while (i < length && source[start + i] === name[i]) i++;
    if (i === length) return true;
  }
  return false;
}

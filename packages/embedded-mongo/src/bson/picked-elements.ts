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

/** Size in bytes of an element's value of each BSON type with a fixed size. */
const FIXED_SIZES: Record<number, number> = {
  0x01: 8, // double
  0x06: 0, // undefined
  0x07: 12, // ObjectId
  0x08: 1, // boolean
  0x09: 8, // UTC datetime
  0x0a: 0, // null
  0x10: 4, // int32
  0x11: 8, // timestamp
  0x12: 8, // int64
  0x13: 16, // decimal128
  0x7f: 0, // MaxKey
  0xff: 0, // MinKey
};

/** Types whose value starts with its own length, counting those 4 bytes: document, array, code with scope. */
const SELF_SIZED = new Set([0x03, 0x04, 0x0f]);
/** Types whose value is a string: an int32 byte count (its terminating zero included), then the bytes. */
const STRING_LIKE = new Set([0x02, 0x0d, 0x0e]);

/** Where the value starting at `at` ends, for a value of `type`. */
function valueEnd(bytes: Buffer, type: number, at: number): number {
  const fixed = FIXED_SIZES[type];
  if (fixed !== undefined) return at + fixed;
  if (SELF_SIZED.has(type)) return at + bytes.readInt32LE(at);
  if (STRING_LIKE.has(type)) return at + 4 + bytes.readInt32LE(at);
  if (type === 0x05) return at + 4 + 1 + bytes.readInt32LE(at); // binary: length, subtype, bytes
  if (type === 0x0b) return bytes.indexOf(0, bytes.indexOf(0, at) + 1) + 1; // regex: pattern and flags cstrings
  if (type === 0x0c) return at + 4 + bytes.readInt32LE(at) + 12; // DBPointer: string, ObjectId
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

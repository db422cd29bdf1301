import { toBson } from '../bson/codec';
import { storedBytes } from '../storage/collection';
import { isDoc, type Doc } from '../types';

const EMBEDDED_DOCUMENT = 0x03;
const ARRAY = 0x04;
/** An empty document's bytes: its elements are just the terminating zero. */
const EMPTY_DOCUMENT = Buffer.from([5, 0, 0, 0, 0]);

/**
 * A reply's BSON, as parts to be concatenated once with the message header. The documents of a cursor's batch that
 * are stored versions (a find without projection, a getMore of one) are copied from the bytes kept beside them
 * (`storage/collection.ts`) rather than serialized again; the batch's size was also read from them
 * (`commands/cursor-registry.ts`). The bytes are the same either way: stored bytes are that version's serialization.
 */
export function replyParts(reply: Doc): Uint8Array[] {
  const { cursor, ...rest } = reply;
  const batchKey = batchKeyOf(cursor);
  if (!batchKey || !isDoc(cursor)) return [toBson(reply)];
  const { [batchKey]: batch, ...cursorRest } = cursor;
  const cursorParts = document([elementHead(ARRAY, batchKey), ...documentArray(batch as Doc[])], toBson(cursorRest));
  return document([elementHead(EMBEDDED_DOCUMENT, 'cursor'), ...cursorParts], toBson(rest));
}

function batchKeyOf(cursor: unknown): 'firstBatch' | 'nextBatch' | undefined {
  if (!isDoc(cursor)) return undefined;
  if (Array.isArray(cursor.firstBatch)) return 'firstBatch';
  return Array.isArray(cursor.nextBatch) ? 'nextBatch' : undefined;
}

/** A document made of the `leading` elements' bytes followed by the elements of `tail`, a serialized document. */
function document(leading: Uint8Array[], tail: Uint8Array): Uint8Array[] {
  const tailElements = tail.subarray(4); // its elements and terminating zero, without its length
  const length = 4 + leading.reduce((sum, part) => sum + part.byteLength, 0) + tailElements.byteLength;
  const prefix = Buffer.alloc(4);
  prefix.writeInt32LE(length, 0);
  return [prefix, ...leading, tailElements];
}

/** A BSON array of documents: keys "0", "1", …, each value the stored bytes when there are any. */
function documentArray(docs: Doc[]): Uint8Array[] {
  const elements = docs.flatMap((doc, index) => [indexHead(index), storedBytes(doc) ?? toBson(doc)]);
  return document(elements, EMPTY_DOCUMENT);
}

/** An element's type byte and name (a cstring); its value follows. */
function elementHead(type: number, name: string): Buffer {
  const head = Buffer.alloc(2 + Buffer.byteLength(name));
  head[0] = type;
  head.write(name, 1);
  return head;
}

/** The heads of array elements, made once: batches repeat them. */
const INDEX_HEADS: Buffer[] = [];

function indexHead(index: number): Buffer {
  return (INDEX_HEADS[index] ??= elementHead(EMBEDDED_DOCUMENT, String(index)));
}

import { toBson } from '../bson/codec';
import { PickedElements } from '../bson/picked-elements';
import { knownBytes, type KnownBson } from '../ops/known-bytes';
import { isDoc, type Doc } from '../types';

const EMBEDDED_DOCUMENT = 0x03;
const ARRAY = 0x04;

/**
 * A reply's BSON behind `headroom` bytes left for the message's header (not written here). The documents of a cursor's
 * batch that are stored versions (a find without projection, a getMore of one) are copied from the bytes kept beside
 * them (`storage/collection.ts`), and those that are top-level field picks of stored versions (a find projecting
 * top-level fields) from their runs of those (`ops/known-bytes.ts`), rather than serialized again; the batch's size
 * was also read from them (`commands/cursor-registry.ts`). The bytes are the same either way: stored bytes are that
 * version's serialization, picked bytes its included elements'.
 */
export function replyBson(reply: Doc, headroom: number): Buffer {
  const { cursor, ...rest } = reply;
  const batchKey = batchKeyOf(cursor);
  if (!batchKey || !isDoc(cursor)) return withHeadroom(toBson(reply), headroom);
  const { [batchKey]: batch, ...cursorRest } = cursor;
  const docs = (batch as Doc[]).map((doc) => knownBytes(doc) ?? toBson(doc));
  return cursorReply(batchKey, docs, toBson(cursorRest).subarray(4), toBson(rest).subarray(4), headroom);
}

function withHeadroom(bson: Uint8Array, headroom: number): Buffer {
  const out = Buffer.allocUnsafe(headroom + bson.byteLength);
  out.set(bson, headroom);
  return out;
}

function batchKeyOf(cursor: unknown): 'firstBatch' | 'nextBatch' | undefined {
  if (!isDoc(cursor)) return undefined;
  if (Array.isArray(cursor.firstBatch)) return 'firstBatch';
  return Array.isArray(cursor.nextBatch) ? 'nextBatch' : undefined;
}

/**
 * `{cursor: {<batchKey>: [docs], ...cursorTail}, ...replyTail}` written into one buffer after `headroom` bytes; the
 * tails are the elements (and terminating zero) of the other fields, serialized.
 */
function cursorReply(
  batchKey: string,
  docs: KnownBson[],
  cursorTail: Uint8Array,
  replyTail: Uint8Array,
  headroom: number,
): Buffer {
  const arrayLength = 4 + docs.reduce((sum, doc, index) => sum + indexHeadLength(index) + doc.byteLength, 0) + 1;
  const cursorLength = 4 + 2 + batchKey.length + arrayLength + cursorTail.byteLength;
  const length = 4 + 2 + 'cursor'.length + cursorLength + replyTail.byteLength;
  const out = Buffer.allocUnsafe(headroom + length);
  let at = out.writeInt32LE(length, headroom);
  at = writeHead(out, at, EMBEDDED_DOCUMENT, 'cursor');
  at = out.writeInt32LE(cursorLength, at);
  at = writeHead(out, at, ARRAY, batchKey);
  at = out.writeInt32LE(arrayLength, at);
  docs.forEach((doc, index) => {
    at = writeHead(out, at, EMBEDDED_DOCUMENT, String(index));
    if (doc instanceof PickedElements) {
      at = doc.writeInto(out, at);
      return;
    }
    out.set(doc, at);
    at += doc.byteLength;
  });
  out[at++] = 0;
  out.set(cursorTail, at);
  out.set(replyTail, at + cursorTail.byteLength);
  return out;
}

/** An element's type byte and name (an ASCII cstring here); its value follows. */
function writeHead(out: Buffer, at: number, type: number, name: string): number {
  out[at] = type;
  const end = at + 1 + out.write(name, at + 1, 'latin1');
  out[end] = 0;
  return end + 1;
}

function indexHeadLength(index: number): number {
  return 2 + String(index).length;
}

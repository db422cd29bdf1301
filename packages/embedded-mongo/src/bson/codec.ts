import { deserialize, serialize } from 'bson';
import type { Doc } from '../types';
import { adoptNumbers } from './number-types';

/** Document serializations (stored versions, copies, checks), surfaced in `serverStatus` so tests can count them. */
export const codecStats = { documentsSerialized: 0 };

/** bson 7 serializes to a Uint8Array; sockets and lmdb want a Buffer over the same memory. */
export function toBson(doc: Doc): Buffer {
  const bytes = serialize(doc, { ignoreUndefined: true });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Serializes a document (not a wire message), counted in `codecStats`. */
export function serializeDocument(doc: Doc): Buffer {
  codecStats.documentsSerialized++;
  return toBson(doc);
}

/** Deserializes keeping int32/int64/double apart, BinData as `ComparableBinary` (see number-types). */
export function fromBson(bytes: Uint8Array): Doc {
  return adoptNumbers(deserialize(bytes, { promoteValues: false })) as Doc;
}

import { deserialize, serialize } from 'bson';
import type { Doc } from '../types';
import { adoptNumbers } from './number-types';

/** bson 7 serializes to a Uint8Array; sockets and lmdb want a Buffer over the same memory. */
export function toBson(doc: Doc): Buffer {
  const bytes = serialize(doc, { ignoreUndefined: true });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Deserializes keeping int32/int64/double apart (see number-types). */
export function fromBson(bytes: Uint8Array): Doc {
  return adoptNumbers(deserialize(bytes, { promoteValues: false })) as Doc;
}

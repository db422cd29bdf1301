import { serialize } from 'bson';
import type { Doc } from './types';

/** bson 7 serializes to a Uint8Array; sockets and lmdb want a Buffer over the same memory. */
export function toBson(doc: Doc): Buffer {
  const bytes = serialize(doc, { ignoreUndefined: true });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

import { pickElements, type ElementPick } from '../bson/picked-elements';
import { storedBytes } from '../storage/collection';
import type { Doc } from '../types';

/**
 * The BSON of results that are picks of stored versions, computed when the pick was made. With the stored versions'
 * own bytes (`storage/collection.ts`), what a cursor batch is sized from and copied into its reply.
 */
const pickedBson = new WeakMap<Doc, Uint8Array>();

/** Remembers that `picked`, a pick of `source`'s top-level fields, serializes to `pick`'s elements of `source`. */
export function rememberPickedBytes(source: Doc, picked: Doc, pick: ElementPick): void {
  const bytes = storedBytes(source);
  if (bytes) pickedBson.set(picked, pickElements(bytes, pick));
}

/** The BSON of a document known without serializing it: a stored version's, or a pick's of one; else undefined. */
export function knownBytes(doc: Doc): Uint8Array | undefined {
  return storedBytes(doc) ?? pickedBson.get(doc);
}

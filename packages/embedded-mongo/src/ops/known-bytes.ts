import { toBson } from '../bson/codec';
import { pickElements, type ElementPick, type PickedElements } from '../bson/picked-elements';
import { storedBytes } from '../storage/collection';
import type { Doc } from '../types';

/**
 * The BSON of results that are picks of stored versions, found when the pick was made (runs of the stored bytes).
 * With the stored versions' own bytes (`storage/collection.ts`), what a cursor batch is sized from and copied into
 * its reply.
 */
const pickedBson = new WeakMap<Doc, PickedElements>();

/** A document's BSON as a reply copies it: bytes, or the picked runs of a stored version's bytes. */
export type KnownBson = Uint8Array | PickedElements;

/** Remembers that `picked`, a pick of `source`'s top-level fields, serializes to `pick`'s elements of `source`. */
export function rememberPickedBytes(source: Doc, picked: Doc, pick: ElementPick): void {
  const bytes = storedBytes(source);
  if (bytes) pickedBson.set(picked, pickElements(bytes, pick));
}

/** Results serialized when a cursor batch was sized from them (`batchBytes`), for their reply to copy. */
const batchBson = new WeakMap<Doc, Uint8Array>();

/**
 * The BSON of a document known without serializing it: a stored version's, a pick's of one, or a batch document's
 * serialized when its batch was sized; else undefined.
 */
export function knownBytes(doc: Doc): KnownBson | undefined {
  return storedBytes(doc) ?? pickedBson.get(doc) ?? batchBson.get(doc);
}

/**
 * The BSON of a document going into a cursor batch: known, or serialized now and remembered, so that its reply copies
 * these bytes instead of serializing it again (a batch's results were sized by a separate walk before, then
 * serialized: most of the stock adjustment's aggregate reply's cost, profiled). Results are not changed once made.
 */
export function batchBytes(doc: Doc): KnownBson {
  const known = knownBytes(doc);
  if (known) return known;
  const bytes = toBson(doc);
  batchBson.set(doc, bytes);
  return bytes;
}

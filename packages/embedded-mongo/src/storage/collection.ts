import { fromBson, serializeDocument } from '../bson/codec';
import { MongoError } from '../errors';
import { Index } from '../indexes/index';
import { ID_INDEX, type IndexSpec } from '../indexes/index-spec';
import { keyString } from '../indexes/key-string';
import { createSearchIndex, isSearchSpec, type SearchIndex } from '../indexes/search-indexes';
import { isDoc, type Doc } from '../types';
import type { CollectionMeta, MisplacedDocument, Store, StoredDocument } from './store';

export const MAX_BSON_SIZE = 16 * 1024 * 1024;

export function idOf(doc: Doc): string {
  return keyString([doc._id]);
}

/**
 * The BSON of every stored document version, serialized once when it was stored (or read from disk).
 * Stored documents are never mutated in place, so the bytes stay valid; they serve the size check,
 * capped accounting, the no-op check of updates, the store and copies for updates.
 */
const storedBson = new WeakMap<Doc, Uint8Array>();

/** The serialized form of a stored document, or of a new version to be stored. */
export function bsonOf(doc: Doc): Uint8Array {
  return storedBson.get(doc) ?? serializeDocument(doc);
}

/** The bytes kept beside a stored document version; undefined for any other object (a projection, a result). */
export function storedBytes(doc: Doc): Uint8Array | undefined {
  return storedBson.get(doc);
}

/** A private deep copy of a stored document (for updates), deserialized from its stored bytes. */
export function copyOf(doc: Doc): Doc {
  return fromBson(bsonOf(doc));
}

/**
 * One collection: documents in a Map keyed by canonical `_id` (insertion order is natural order)
 * plus its indexes. Every mutation is applied in memory synchronously (so a command never sees a
 * half-applied write) and queued to the store in the same order.
 */
export class Collection {
  readonly docs = new Map<string, Doc>();
  readonly indexes = new Map<string, Index>();
  /** Text and geo indexes (src/text, src/geo), maintained with the others but never planned as B-trees. */
  readonly searchIndexes = new Map<string, SearchIndex>();
  /** BSON bytes of the documents, kept for capped collections only. */
  private cappedBytes = 0;

  constructor(
    readonly db: string,
    readonly name: string,
    public options: Doc,
    private readonly store: Store,
  ) {
    this.indexes.set(ID_INDEX.name, new Index(ID_INDEX));
  }

  /** A read-only view: `options.viewOn` names its source, `options.pipeline` computes it. */
  get isView(): boolean {
    return typeof this.options.viewOn === 'string';
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  meta(): CollectionMeta {
    const indexes = [...this.maintainedIndexes()].map((index) => index.spec);
    return { db: this.db, name: this.name, options: this.options, indexes };
  }

  saveMeta(): void {
    this.store.putCollection(this.meta());
  }

  get(id: string): Doc | undefined {
    return this.docs.get(id);
  }

  insert(doc: Doc): void {
    const bson = bsonOf(doc);
    checkSize(bson);
    checkId(doc._id);
    const id = idOf(doc);
    // A new document owns no index entries yet, so any holder of its keys is a duplicate.
    for (const index of this.maintainedIndexes()) index.checkUnique(doc, '', this.ns);
    this.keep(id, doc, bson);
    this.addToIndexes(doc, id);
    if (this.options.capped) this.evictForCap(doc, bson);
  }

  /** A capped collection drops its oldest documents once it holds more than `max` documents or `size` bytes. */
  private evictForCap(added: Doc, bson: Uint8Array): void {
    this.cappedBytes += bson.byteLength;
    const max = Number(this.options.max ?? 0);
    const size = Number(this.options.size ?? 0);
    for (const oldest of this.docs.values()) {
      const over = (max > 0 && this.docs.size > max) || (size > 0 && this.cappedBytes > size);
      if (!over || oldest === added) return;
      this.remove(oldest);
    }
  }

  /** Replaces a stored document by its next version; `bson` is the next version's serialized form. */
  replace(current: Doc, next: Doc, bson = bsonOf(next)): void {
    checkSize(bson);
    const id = idOf(current);
    for (const index of this.maintainedIndexes()) index.checkUnique(next, id, this.ns);
    this.keep(id, next, bson);
    for (const index of this.maintainedIndexes()) index.replace(current, next, id);
    if (this.options.capped) this.cappedBytes += bson.byteLength - bsonOf(current).byteLength;
  }

  remove(doc: Doc): void {
    const id = idOf(doc);
    for (const index of this.maintainedIndexes()) index.remove(doc, id);
    this.docs.delete(id);
    this.store.deleteDocument(this.ns, id);
    if (this.options.capped) this.cappedBytes -= bsonOf(doc).byteLength;
  }

  /** Queues the version to the store first: if the store throws, memory is unchanged. */
  private keep(id: string, doc: Doc, bson: Uint8Array): void {
    this.store.putDocument(this.ns, id, bson);
    storedBson.set(doc, bson);
    this.docs.set(id, doc);
  }

  /**
   * Opens a stored collection from its documents' BSON (validated when written), then builds each index. Returns
   * the documents stored under a key other than the one their `_id` has now (written by an earlier version).
   */
  load(stored: StoredDocument[], specs: IndexSpec[]): MisplacedDocument[] {
    const misplaced: MisplacedDocument[] = [];
    for (const { bson, key } of stored) {
      const doc = fromBson(bson);
      const id = idOf(doc);
      this.refuseEqualIds(id, doc);
      storedBson.set(doc, bson);
      this.docs.set(id, doc);
      if (!this.store.isKeyOf(key, this.ns, id)) misplaced.push({ ns: this.ns, from: key, id, bson });
    }
    if (this.options.capped) this.cappedBytes = stored.reduce((total, { bson }) => total + bson.byteLength, 0);
    this.indexes.clear();
    this.searchIndexes.clear();
    for (const spec of specs) this.createIndex(spec);
    return misplaced;
  }

  /**
   * Two stored documents whose `_id`s MongoDB finds equal, possible only in a store written before numbers of
   * different types were keyed by value (`1` and `Decimal128("1.0")`: README, "On-disk format and upgrades"): the open
   * fails rather than move one onto the other's key.
   */
  private refuseEqualIds(id: string, doc: Doc): void {
    const other = this.docs.get(id);
    if (!other) return;
    throw new MongoError(
      'DuplicateKey',
      `${this.ns} holds documents with equal _id values ${String(other._id)} and ${String(doc._id)}: ` +
        'remove one with the version that stored them before opening the store with this one',
    );
  }

  /** Builds the index over existing documents; throws (leaving nothing behind) on a duplicate. */
  createIndex(spec: IndexSpec): void {
    if (isSearchSpec(spec)) {
      const searchIndex = createSearchIndex(spec);
      searchIndex.build(this.docs);
      this.searchIndexes.set(searchIndex.name, searchIndex);
      return;
    }
    const index = new Index(spec);
    index.build(this.docs, this.ns);
    this.indexes.set(index.name, index);
  }

  dropIndex(name: string): void {
    this.indexes.delete(name);
    this.searchIndexes.delete(name);
  }

  /** Every index a write maintains: the B-tree ones, then text and geo ones. */
  *maintainedIndexes(): Iterable<Index | SearchIndex> {
    yield* this.indexes.values();
    yield* this.searchIndexes.values();
  }

  private addToIndexes(doc: Doc, id: string): void {
    for (const index of this.maintainedIndexes()) index.add(doc, id);
  }
}

function checkId(id: unknown): void {
  if (Array.isArray(id) || id instanceof RegExp) {
    throw new MongoError(
      'InvalidIdField',
      `The '_id' value cannot be of type ${Array.isArray(id) ? 'array' : 'regex'}`,
    );
  }
  const dollarKey = isDoc(id) ? Object.keys(id).find((key) => key.startsWith('$')) : undefined;
  if (dollarKey) {
    throw new MongoError(
      'DollarPrefixedFieldName',
      `_id fields may not contain '$'-prefixed fields: ${dollarKey} is not valid for storage.`,
    );
  }
}

function checkSize(bson: Uint8Array): void {
  const size = bson.byteLength;
  if (size > MAX_BSON_SIZE) {
    throw new MongoError(
      'BSONObjectTooLarge',
      `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_SIZE}`,
    );
  }
}

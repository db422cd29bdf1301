import { MongoError } from '../errors';
import type { Doc } from '../types';
import { Collection } from './collection';
import type { MisplacedDocument, StorageStats, Store } from './store';

/** All databases and collections of one server, backed by a store. */
export class Engine {
  private readonly collections = new Map<string, Collection>();

  /**
   * Opens the stored collections. Documents an earlier version stored under another key are moved to their key now
   * before anything is served (README, "On-disk format and upgrades").
   */
  constructor(private readonly store: Store) {
    let misplaced: MisplacedDocument[] = [];
    for (const stored of store.load()) {
      const collection = new Collection(stored.db, stored.name, stored.options, store);
      misplaced = misplaced.concat(collection.load(stored.docs, stored.indexes));
      this.collections.set(collection.ns, collection);
    }
    store.rekey(misplaced);
  }

  collection(db: string, name: string): Collection | undefined {
    return this.collections.get(`${db}.${name}`);
  }

  /** An existing collection that may be written to (views are read-only). */
  writable(db: string, name: string): Collection | undefined {
    const collection = this.collection(db, name);
    if (collection?.isView) {
      throw new MongoError('CommandNotSupportedOnView', `Namespace ${collection.ns} is a view, not a collection`);
    }
    return collection;
  }

  /** The collection to write to, created implicitly (as inserts and createIndexes do) when missing. */
  ensure(db: string, name: string): Collection {
    return this.writable(db, name) ?? this.create(db, name, {});
  }

  create(db: string, name: string, options: Doc): Collection {
    validateName(db, name);
    if (this.collection(db, name)) throw new MongoError('NamespaceExists', `Collection ${db}.${name} already exists.`);
    const collection = new Collection(db, name, options, this.store);
    this.collections.set(collection.ns, collection);
    collection.saveMeta();
    return collection;
  }

  drop(db: string, name: string): boolean {
    const ns = `${db}.${name}`;
    if (!this.collections.delete(ns)) return false;
    this.store.dropCollection(ns);
    return true;
  }

  dropDatabase(db: string): void {
    for (const collection of this.list(db)) this.drop(db, collection.name);
  }

  rename(from: Collection, db: string, name: string): void {
    validateName(db, name);
    const target = new Collection(db, name, from.options, this.store);
    for (const index of from.maintainedIndexes()) if (index.name !== '_id_') target.createIndex(index.spec);
    this.collections.set(target.ns, target);
    target.saveMeta();
    for (const doc of from.docs.values()) target.insert(doc);
    this.drop(from.db, from.name);
  }

  list(db: string): Collection[] {
    return [...this.collections.values()].filter((collection) => collection.db === db);
  }

  databases(): string[] {
    return [...new Set([...this.collections.values()].map((collection) => collection.db))];
  }

  all(): Collection[] {
    return [...this.collections.values()];
  }

  flush(): Promise<void> {
    return this.store.flush();
  }

  backup(target: string): Promise<void> {
    return this.store.backup(target);
  }

  get commitStats(): StorageStats {
    return this.store.commitStats;
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/** MongoDB's limit on `<db>.<collection>` in bytes; it also keeps every storage key within lmdb's limit. */
const MAX_NS_BYTES = 255;

function validateName(db: string, name: string): void {
  if (!name || name.includes('\0') || name.startsWith('.') || name.includes('$') || !db) {
    throw new MongoError('InvalidNamespace', `Invalid collection name: ${name}`);
  }
  const ns = `${db}.${name}`;
  if (Buffer.byteLength(ns) > MAX_NS_BYTES) {
    const message = `Fully qualified namespace is too long. Namespace: ${ns} Max: ${MAX_NS_BYTES}`;
    throw new MongoError('InvalidNamespace', message);
  }
}

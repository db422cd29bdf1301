import type { CommitCounters } from '../commit-counters';
import type { CollectionMeta, MisplacedDocument, StorageStats, Store, StoredCollection } from './store';

/**
 * A store that bumps the commit counters (`CommitCounters`) of every document write it is given, then passes it on.
 * A collection queues each write to its store in the synchronous step that applies it in memory (`Collection.keep`,
 * `remove`), so the bump and the write are one step of the server's thread: a read runs wholly before or wholly
 * after both, and every reply acknowledging the write is sent after the bump.
 */
export class CountingStore implements Store {
  constructor(
    private readonly store: Store,
    private readonly counters: CommitCounters,
  ) {}

  load(): StoredCollection[] {
    return this.store.load();
  }

  isKeyOf(key: Uint8Array, ns: string, id: string): boolean {
    return this.store.isKeyOf(key, ns, id);
  }

  /** Not counted: a move of keys at open changes no document, and nothing was read yet. */
  rekey(documents: MisplacedDocument[]): void {
    this.store.rekey(documents);
  }

  putDocument(ns: string, id: string, bson: Uint8Array): void {
    this.store.putDocument(ns, id, bson);
    this.counters.documentWritten(ns, id);
  }

  deleteDocument(ns: string, id: string): void {
    this.store.deleteDocument(ns, id);
    this.counters.documentWritten(ns, id);
  }

  putCollection(meta: CollectionMeta): void {
    this.store.putCollection(meta);
  }

  dropCollection(ns: string): void {
    this.store.dropCollection(ns);
    this.counters.collectionDropped(ns);
  }

  flush(): Promise<void> {
    return this.store.flush();
  }

  backup(target: string): Promise<void> {
    return this.store.backup(target);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  get commitStats(): StorageStats {
    return this.store.commitStats;
  }
}

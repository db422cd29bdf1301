import { MongoError } from '../errors';
import type { IndexSpec } from '../indexes/index-spec';
import type { Doc } from '../types';
import type { CommitStats } from './group-commit';

/** What the catalog keeps about a collection besides its documents. */
export interface CollectionMeta {
  db: string;
  name: string;
  options: Doc;
  indexes: IndexSpec[];
}

export interface StoredCollection extends CollectionMeta {
  docs: StoredDocument[];
}

export interface StoredDocument {
  bson: Uint8Array;
  /** The store's key for it, opaque outside the store: see {@link Store.isKeyOf}. */
  key: Uint8Array;
}

/** A document found under a key an earlier version's rule made (`from`), to be kept under the key of `id`. */
export interface MisplacedDocument {
  ns: string;
  from: Uint8Array;
  /** The `keyString` of its `_id`. */
  id: string;
  bson: Uint8Array;
}

/**
 * Durable backing of the in-memory collections. Mutations are queued synchronously in the order
 * they are applied in memory; `flush()` resolves once everything queued so far is on disk (and
 * rejects if the commit covering it failed).
 */
export interface Store {
  load(): StoredCollection[];
  /** Whether a loaded document of `ns` whose `_id` has `keyString` `id` is stored under the key this version gives it. */
  isKeyOf(key: Uint8Array, ns: string, id: string): boolean;
  /** Moves loaded documents to the keys this version gives them, in one durable transaction (before any write). */
  rekey(documents: MisplacedDocument[]): void;
  /** `bson` is the document's serialized form, made once by the collection. */
  putDocument(ns: string, id: string, bson: Uint8Array): void;
  deleteDocument(ns: string, id: string): void;
  putCollection(meta: CollectionMeta): void;
  dropCollection(ns: string): void;
  flush(): Promise<void>;
  /** Writes a consistent copy of the store, with every write acknowledged so far, into the new directory `target`. */
  backup(target: string): Promise<void>;
  close(): Promise<void>;
  /** Commit counters (zero in memory). */
  readonly commitStats: StorageStats;
}

export interface StorageStats extends CommitStats {
  /** Moves of journaled writes into lmdb. */
  checkpoints: number;
  /** Writes replayed from the journal at open. */
  recoveredWrites: number;
  /** Documents moved at open from keys an earlier version made (`Store.rekey`). */
  rekeyedDocuments: number;
}

/** In-memory mode: nothing to persist. */
export class MemoryStore implements Store {
  readonly commitStats: StorageStats = {
    commits: 0,
    committedWrites: 0,
    failedCommits: 0,
    checkpoints: 0,
    recoveredWrites: 0,
    rekeyedDocuments: 0,
  };
  load(): StoredCollection[] {
    return [];
  }
  isKeyOf(): boolean {
    return true;
  }
  rekey(): void {}
  putDocument(): void {}
  deleteDocument(): void {}
  putCollection(): void {}
  dropCollection(): void {}
  async flush(): Promise<void> {}
  backup(): Promise<void> {
    return Promise.reject(new MongoError('IllegalOperation', 'an in-memory server has no store to back up'));
  }
  async close(): Promise<void> {}
}

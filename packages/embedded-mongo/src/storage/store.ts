import type { IndexSpec } from '../indexes/index-spec';
import type { Doc } from '../types';

/** What the catalog keeps about a collection besides its documents. */
export interface CollectionMeta {
  db: string;
  name: string;
  options: Doc;
  indexes: IndexSpec[];
}

export interface StoredCollection extends CollectionMeta {
  docs: Doc[];
}

/**
 * Durable backing of the in-memory collections. Mutations are queued synchronously in the order
 * they are applied in memory; `flush()` resolves once everything queued so far is on disk.
 */
export interface Store {
  load(): StoredCollection[];
  putDocument(ns: string, id: string, doc: Doc): void;
  deleteDocument(ns: string, id: string): void;
  putCollection(meta: CollectionMeta): void;
  dropCollection(ns: string): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** In-memory mode: nothing to persist. */
export class MemoryStore implements Store {
  load(): StoredCollection[] {
    return [];
  }
  putDocument(): void {}
  deleteDocument(): void {}
  putCollection(): void {}
  dropCollection(): void {}
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
}

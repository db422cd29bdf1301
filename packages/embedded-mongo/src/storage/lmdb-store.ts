import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fromBson, toBson } from '../bson/codec';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Doc } from '../types';
import { lockDirectory } from './dir-lock';
import type { CollectionMeta, Store, StoredCollection } from './store';

/** LMDB's maximum key size is 1978 bytes; longer `_id` keys are replaced by their digest. */
const MAX_ID_KEY = 1500;
const SEPARATOR = '\u0000';

/**
 * Documents live in the `docs` table under `<ns>\0<canonical _id>` (BSON values, so types survive),
 * collection metadata in `catalog` under `<ns>`. `overlappingSync` is off, so a commit is fsynced
 * before its promise resolves: once `flush()` resolves, every earlier write survives kill -9 and power
 * loss. lmdb-js batches writes queued in the same tick into one transaction (group commit).
 */
export class LmdbStore implements Store {
  private pending: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly root: RootDatabase,
    private readonly docs: Database<Buffer, Buffer>,
    private readonly catalog: Database<Buffer, string>,
    private readonly unlock: () => void,
  ) {}

  static open(path: string): LmdbStore {
    mkdirSync(path, { recursive: true });
    const unlock = lockDirectory(path);
    // noSubdir: false keeps lmdb from treating a directory name with a dot (`db.v1`) as a file name.
    const root = open({ path, noSubdir: false, overlappingSync: false, maxDbs: 4 });
    const docs = root.openDB<Buffer, Buffer>({ name: 'docs', encoding: 'binary', keyEncoding: 'binary' });
    const catalog = root.openDB<Buffer, string>({ name: 'catalog', encoding: 'binary' });
    return new LmdbStore(root, docs, catalog, unlock);
  }

  load(): StoredCollection[] {
    const collections = new Map<string, StoredCollection>();
    for (const { key, value } of this.catalog.getRange()) {
      collections.set(key, { ...(fromBson(value) as unknown as CollectionMeta), docs: [] });
    }
    for (const { key, value } of this.docs.getRange()) {
      const ns = key.toString('utf8', 0, key.indexOf(0));
      collections.get(ns)?.docs.push(fromBson(value));
    }
    return [...collections.values()];
  }

  putDocument(ns: string, id: string, doc: Doc): void {
    this.track(this.docs.put(docKey(ns, id), toBson(doc)));
  }

  deleteDocument(ns: string, id: string): void {
    this.track(this.docs.remove(docKey(ns, id)));
  }

  putCollection(meta: CollectionMeta): void {
    this.track(this.catalog.put(`${meta.db}.${meta.name}`, toBson({ ...meta })));
  }

  dropCollection(ns: string): void {
    const start = Buffer.from(`${ns}${SEPARATOR}`);
    const end = Buffer.from(`${ns}\u0001`);
    for (const key of this.docs.getKeys({ start, end })) this.track(this.docs.remove(key));
    this.track(this.catalog.remove(ns));
  }

  /**
   * Writes commit in order, so the latest one settles last: `flush()` awaits only it. Earlier ones
   * get a handler so that a failed commit is reported by `flush()`, never as an unhandled rejection.
   */
  private track(write: Promise<unknown>): void {
    write.catch(() => undefined);
    this.pending = write;
  }

  async flush(): Promise<void> {
    await this.pending;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.root.close();
    this.unlock();
  }
}

function docKey(ns: string, id: string): Buffer {
  const idPart = Buffer.byteLength(id) > MAX_ID_KEY ? `#${createHash('sha256').update(id).digest('hex')}` : id;
  return Buffer.from(`${ns}${SEPARATOR}${idPart}`);
}

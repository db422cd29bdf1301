import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fromBson, toBson } from '../bson/codec';
import { MongoError } from '../errors';
import { open, type Database, type RootDatabase } from 'lmdb';
import { lockDirectory } from './dir-lock';
import { GroupCommit, type CommitStats } from './group-commit';
import type { CollectionMeta, Store, StoredCollection } from './store';

/** LMDB's maximum key size; `_id` parts longer than MAX_ID_KEY bytes are replaced by their digest. */
const MAX_KEY = 1978;
const MAX_ID_KEY = 1500;
const SEPARATOR = '\u0000';

/** One queued change; applied in queue order within one lmdb transaction. */
type Write =
  | { table: 'docs' | 'catalog'; key: string; value: Uint8Array | null }
  | { table: 'docs'; droppedNs: string };

/**
 * Documents live in the `docs` table under `<ns>\0<canonical _id>` (BSON values, so types survive),
 * collection metadata in `catalog` under `<ns>`. Writes are queued and committed by a GroupCommit:
 * one lmdb transaction per batch, at most one in flight. `overlappingSync` is off, so LMDB syncs
 * the data file and the meta page inside the commit, before the batch's promise resolves: once
 * `flush()` resolves, every earlier write survives kill -9 and power loss.
 */
export class LmdbStore implements Store {
  private readonly group = new GroupCommit<Write>((batch) => this.commit(batch.writes));

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

  get commitStats(): CommitStats {
    return this.group.stats;
  }

  load(): StoredCollection[] {
    const collections = new Map<string, StoredCollection>();
    for (const { key, value } of this.catalog.getRange()) {
      collections.set(key, { ...(fromBson(value) as unknown as CollectionMeta), docs: [] });
    }
    // lmdb hands out a copy of each value, so the collection may keep it as the document's bytes.
    for (const { key, value } of this.docs.getRange()) {
      const ns = key.toString('utf8', 0, key.indexOf(0));
      collections.get(ns)?.docs.push(value);
    }
    return [...collections.values()];
  }

  putDocument(ns: string, id: string, bson: Uint8Array): void {
    void this.group.add({ table: 'docs', key: checkedKey(docKey(ns, id)), value: bson });
  }

  deleteDocument(ns: string, id: string): void {
    void this.group.add({ table: 'docs', key: docKey(ns, id), value: null });
  }

  putCollection(meta: CollectionMeta): void {
    void this.group.add({ table: 'catalog', key: `${meta.db}.${meta.name}`, value: toBson({ ...meta }) });
  }

  dropCollection(ns: string): void {
    void this.group.add({ table: 'docs', droppedNs: ns });
    void this.group.add({ table: 'catalog', key: ns, value: null });
  }

  flush(): Promise<void> {
    return this.group.flush();
  }

  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    await this.root.close();
    this.unlock();
  }

  /** Commits a batch as one lmdb transaction; the writes of a failed commit answer InternalError (1). */
  private async commit(writes: Write[]): Promise<void> {
    try {
      await Promise.all(this.issue(writes));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new MongoError('InternalError', `storage commit failed: ${reason}`);
    }
  }

  /**
   * Issues a batch's writes in one event turn, which lmdb-js commits as one transaction. A dropped
   * collection's stored keys are read here, after every earlier batch committed; its keys written
   * earlier in this batch are not visible yet, so they are tracked.
   */
  private issue(writes: Write[]): Promise<unknown>[] {
    const results: Promise<unknown>[] = [];
    const putKeys = new Set<string>();
    for (const write of writes) {
      if ('droppedNs' in write) {
        const prefix = `${write.droppedNs}${SEPARATOR}`;
        for (const key of this.docs.getKeys(nsRange(prefix))) results.push(this.docs.remove(key));
        for (const key of putKeys) if (key.startsWith(prefix)) results.push(this.docs.remove(Buffer.from(key)));
      } else if (write.table === 'docs') {
        if (write.value) putKeys.add(write.key);
        const key = Buffer.from(write.key);
        results.push(write.value ? this.docs.put(key, write.value as Buffer) : this.docs.remove(key));
      } else {
        results.push(write.value ? this.catalog.put(write.key, write.value as Buffer) : this.catalog.remove(write.key));
      }
    }
    return results;
  }
}

/** Every key starting with `prefix` (`<ns>\0`): up to `<ns>\u0001`. */
function nsRange(prefix: string): { start: Buffer; end: Buffer } {
  return { start: Buffer.from(prefix), end: Buffer.from(`${prefix.slice(0, -1)}\u0001`) };
}

/** Refuses a key lmdb would refuse, before it joins a batch (where it would fail every write of the batch). */
function checkedKey(key: string): string {
  if (Buffer.byteLength(key) > MAX_KEY) throw new Error(`Key size is larger than the maximum key size (${MAX_KEY})`);
  return key;
}

function docKey(ns: string, id: string): string {
  const idPart = Buffer.byteLength(id) > MAX_ID_KEY ? `#${createHash('sha256').update(id).digest('hex')}` : id;
  return `${ns}${SEPARATOR}${idPart}`;
}

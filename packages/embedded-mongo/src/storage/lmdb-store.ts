import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { fromBson, toBson } from '../bson/codec';
import { MongoError } from '../errors';
import { open, type Database, type RootDatabase } from 'lmdb';
import { lockDirectory } from './dir-lock';
import { GroupCommit } from './group-commit';
import { Journal } from './journal';
import { checkStore, JOURNAL_BYTES, JOURNAL_FILE, markStore } from './store-check';
import type { CollectionMeta, MisplacedDocument, Store, StorageStats, StoredCollection } from './store';
import { decodeWrites, encodeWrites, type Write } from './store-writes';

/**
 * LMDB's maximum key size is 1978 bytes: namespaces are at most 255 bytes (see Engine) and `_id` parts
 * longer than MAX_ID_KEY bytes are replaced by their digest, so a document key always fits.
 */
const MAX_ID_KEY = 1500;
const SEPARATOR = '\u0000';
/**
 * Below this much free space a failed commit is reported as a full disk. lmdb reports a write that found no space as
 * EIO, so the free space is asked of the file system instead of read from the error.
 */
const LOW_SPACE_BYTES = 4 * 1024 * 1024;
/** How often journaled writes are moved into lmdb (at the next commit), so the journal stays short. */
const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * Documents live in the `docs` table under `<ns>\0<canonical _id>` (BSON values, so types survive),
 * collection metadata in `catalog` under `<ns>`. Writes are queued and committed by a GroupCommit,
 * one batch at a time: a batch is durable once its record is written to the journal (one O_DSYNC
 * write). Journaled writes reach lmdb at a checkpoint (about once a second, when the journal is full
 * and at close): one lmdb transaction, synced by LMDB itself (`overlappingSync` off), after which the
 * journal starts a new generation. At open, records left in the journal are replayed into lmdb first.
 */
export class LmdbStore implements Store {
  private readonly group = new GroupCommit<Write>((batch) => this.exclusively(() => this.commit(batch.writes)));
  /** The last commit or backup: each starts after the one before ended (the journal takes one writer at a time). */
  private turn: Promise<unknown> = Promise.resolve();
  /** Backups being copied: the environment stays open until they end. */
  private readonly copying = new Set<Promise<void>>();
  private closing = false;
  /** Journaled writes not yet in lmdb, in order. */
  private unapplied: Write[] = [];
  private checkpointDue = false;
  private checkpointTimer?: NodeJS.Timeout;
  private checkpoints = 0;
  private recoveredWrites = 0;
  private rekeyedDocuments = 0;

  private constructor(
    private readonly root: RootDatabase,
    private readonly docs: Database<Buffer, Buffer>,
    private readonly catalog: Database<Buffer, string>,
    private readonly journal: Journal,
    private readonly unlock: () => void,
    private readonly path: string,
  ) {}

  static open(path: string): LmdbStore {
    mkdirSync(path, { recursive: true });
    const unlock = lockDirectory(path);
    try {
      // Before lmdb maps the file: it trusts what it maps, and a damaged file would crash the process.
      checkStore(path);
    } catch (error) {
      unlock();
      throw error;
    }
    // noSubdir: false keeps lmdb from treating a directory name with a dot (`db.v1`) as a file name.
    const root = open({ path, noSubdir: false, overlappingSync: false, maxDbs: 4 });
    const docs = root.openDB<Buffer, Buffer>({ name: 'docs', encoding: 'binary', keyEncoding: 'binary' });
    const catalog = root.openDB<Buffer, string>({ name: 'catalog', encoding: 'binary' });
    let journal: Journal | undefined;
    try {
      const opened = Journal.open(join(path, JOURNAL_FILE), JOURNAL_BYTES);
      journal = opened.journal;
      const store = new LmdbStore(root, docs, catalog, opened.journal, unlock, path);
      store.recover(opened.records);
      markStore(path);
      store.scheduleCheckpoints();
      return store;
    } catch (error) {
      // A journal that cannot be opened or replayed leaves nothing open behind (the directory is released).
      journal?.close();
      void root.close();
      unlock();
      throw error;
    }
  }

  get commitStats(): StorageStats {
    const { checkpoints, recoveredWrites, rekeyedDocuments } = this;
    return { ...this.group.stats, checkpoints, recoveredWrites, rekeyedDocuments };
  }

  load(): StoredCollection[] {
    const collections = new Map<string, StoredCollection>();
    for (const { key, value } of this.catalog.getRange()) {
      collections.set(key, { ...(fromBson(value) as unknown as CollectionMeta), docs: [] });
    }
    // lmdb hands out a copy of each value, so the collection may keep it as the document's bytes.
    for (const { key, value } of this.docs.getRange()) {
      const ns = key.toString('utf8', 0, key.indexOf(0));
      collections.get(ns)?.docs.push({ bson: value, key });
    }
    return [...collections.values()];
  }

  isKeyOf(key: Uint8Array, ns: string, id: string): boolean {
    return Buffer.from(docKey(ns, id)).equals(key);
  }

  /**
   * The upgrade of keys made by an earlier version's rule (README, "On-disk format and upgrades"): each document is
   * put under its key now and removed from the old one, all in one synced lmdb transaction, so a store is re-keyed
   * entirely or (killed before the commit) not at all, and the next open does it again.
   */
  rekey(documents: MisplacedDocument[]): void {
    if (documents.length === 0) return;
    this.root.transactionSync(() => {
      for (const { ns, from, id, bson } of documents) {
        void this.docs.remove(Buffer.from(from));
        void this.docs.put(Buffer.from(docKey(ns, id)), bson as Buffer);
      }
    });
    this.rekeyedDocuments = documents.length;
  }

  putDocument(ns: string, id: string, bson: Uint8Array): void {
    void this.group.add({ table: 'docs', key: docKey(ns, id), value: bson });
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
    this.closing = true;
    clearInterval(this.checkpointTimer);
    const failed = await this.flush().then(
      () => undefined,
      (error: unknown) => error,
    );
    try {
      if (this.unapplied.length > 0) await this.checkpoint([]);
    } finally {
      await Promise.allSettled(this.copying);
      this.journal.close();
      await this.root.close();
      this.unlock();
    }
    // Closed all the same (the directory is released), but the caller learns that writes were lost.
    if (failed !== undefined) throw failed instanceof Error ? failed : new Error(String(failed));
  }

  /**
   * Writes a consistent copy of the store into `target` (a new or empty directory) while the server keeps serving:
   * the journaled writes are checkpointed first, so lmdb holds every write acknowledged before this call, then
   * lmdb copies the file from a read transaction (a snapshot; writes go on meanwhile). The copy is `data.mdb`
   * alone, a store that needs no journal; it is checked before this resolves.
   */
  async backup(target: string): Promise<void> {
    mkdirSync(target, { recursive: true });
    if (readdirSync(target).length > 0) throw new MongoError('BadValue', `backup target ${target} is not empty`);
    await this.exclusively(() => this.checkpoint([]));
    if (this.closing) throw new MongoError('InterruptedAtShutdown', 'the server is shutting down; no backup was taken');
    // The environment is a directory (noSubdir: false), so lmdb writes `data.mdb` into the path it is given.
    const copy = this.root.backup(target, false);
    this.copying.add(copy);
    try {
      await copy;
    } finally {
      this.copying.delete(copy);
    }
    checkStore(target);
  }

  /** Runs `work` after the commit or backup step before it ended. */
  private exclusively<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => undefined);
    return result;
  }

  private scheduleCheckpoints(): void {
    this.checkpointTimer = setInterval(() => (this.checkpointDue = true), CHECKPOINT_INTERVAL_MS);
    this.checkpointTimer.unref();
  }

  /** Replays the journal left by a previous run into lmdb (one synced transaction), then empties it. */
  private recover(records: Buffer[]): void {
    if (records.length === 0) return;
    const writes = records.flatMap(decodeWrites);
    this.root.transactionSync(() => {
      // Inside a synchronous transaction lmdb applies each write at once; their promises only echo that.
      void this.issue(writes);
    });
    this.journal.resetSync();
    this.recoveredWrites = writes.length;
  }

  /** Makes a batch durable: a journal record, or (larger than the journal) an lmdb commit of its own. */
  private async commit(writes: Write[]): Promise<void> {
    try {
      const payload = encodeWrites(writes);
      if (this.checkpointDue || !this.journal.fits(payload.length)) await this.checkpoint([]);
      if (!this.journal.fits(payload.length)) return await this.checkpoint(writes);
      this.journal.append(payload);
      this.unapplied.push(...writes);
    } catch (error) {
      throw this.commitFailure(error);
    }
  }

  /** A failed commit as the writers see it: OutOfDiskSpace (14031) on a full disk, InternalError (1) otherwise. */
  private commitFailure(error: unknown): MongoError {
    const reason = error instanceof Error ? error.message : String(error);
    const free = freeBytes(this.path);
    if ((error as NodeJS.ErrnoException).code === 'ENOSPC' || (free !== undefined && free < LOW_SPACE_BYTES)) {
      return new MongoError(
        'OutOfDiskSpace',
        `write refused: the disk holding the store is full (${free ?? 0} bytes free; ${reason}); reads go on, ` +
          'and the change, applied in memory, is committed with the first write after space is freed',
      );
    }
    return new MongoError(
      'InternalError',
      `write not durable, storage commit failed (${reason}); the change stays applied in memory ` +
        'and is committed again with the next write',
    );
  }

  /** Commits the journaled writes (and `more`) to lmdb, synced, then starts a new journal generation. */
  private async checkpoint(more: Write[]): Promise<void> {
    const writes = this.unapplied.concat(more);
    await Promise.all(this.issue(writes)).catch(lmdbCommitError);
    this.unapplied = [];
    this.checkpointDue = false;
    this.checkpoints++;
    await this.journal.reset();
  }

  /**
   * Issues writes in one event turn, which lmdb-js commits as one transaction (or into the current
   * synchronous one). A dropped collection's stored keys are read here, after every earlier commit;
   * its keys written earlier in the same call are not visible yet, so they are tracked.
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

/**
 * lmdb-js rejects each write of a failed transaction with a generic error whose `commitError` promise rejects with
 * the cause; left unhandled, that rejection would end the server's thread. Throws the cause instead.
 */
async function lmdbCommitError(error: unknown): Promise<never> {
  const commitError = (error as { commitError?: Promise<unknown> }).commitError;
  if (!commitError) throw error;
  const cause = await commitError.then(
    () => error,
    (reason: unknown) => reason,
  );
  throw cause;
}

function freeBytes(path: string): number | undefined {
  try {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

/** Every key starting with `prefix` (`<ns>\0`): up to `<ns>\u0001`. */
function nsRange(prefix: string): { start: Buffer; end: Buffer } {
  return { start: Buffer.from(prefix), end: Buffer.from(`${prefix.slice(0, -1)}\u0001`) };
}

function docKey(ns: string, id: string): string {
  const idPart = Buffer.byteLength(id) > MAX_ID_KEY ? `#${createHash('sha256').update(id).digest('hex')}` : id;
  return `${ns}${SEPARATOR}${idPart}`;
}

import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { fromBson, toBson } from '../bson/codec';
import { MongoError } from '../errors';
import { open, type Database, type RootDatabase } from 'lmdb';
import { lockDirectory } from './dir-lock';
import { GroupCommit } from './group-commit';
import { Journal } from './journal';
import { describeError, log } from '../log';
import { checkStore, JOURNAL_BYTES, JOURNAL_FILES, markStore } from './store-check';
import type { CollectionMeta, Store, StorageStats, StoredCollection } from './store';
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
 * one batch at a time: a batch is durable once its record is written to the active journal (one O_DSYNC
 * write). Journaled writes reach lmdb at a checkpoint (about once a second, when the journal is full
 * and at close): one lmdb transaction, synced by LMDB itself (`overlappingSync` off), after which the
 * journal starts a new generation. There are two journals so that commits do not wait for checkpoints: a
 * checkpoint switches commits to the other journal (reset since its own checkpoint) and moves the writes of the
 * one it leaves into lmdb in the background. At open, the records left in both journals are replayed into lmdb,
 * the older generation first.
 */
export class LmdbStore implements Store {
  private readonly group = new GroupCommit<Write>((batch) => this.exclusively(() => this.commit(batch.writes)));
  /** The last commit or backup: each starts after the one before ended (the journal takes one writer at a time). */
  private turn: Promise<unknown> = Promise.resolve();
  /** Backups being copied: the environment stays open until they end. */
  private readonly copying = new Set<Promise<void>>();
  private closing = false;
  /** The journal commits append to; the other one is reset or holds `retired`. */
  private active = 0;
  /** Writes journaled in the active journal, not yet in lmdb, in order. */
  private unapplied: Write[] = [];
  /** Writes of the other journal not yet in lmdb (all before `unapplied`), while it is not reset. */
  private retired: Write[] = [];
  /** Whether the other journal may hold records (its writes are being moved, or the move failed): not reset. */
  private retiredPending = false;
  /** The background move of `retired` into lmdb; it never rejects (a failure leaves `retiredPending`). */
  private moving?: Promise<void>;
  /** Whether the last background move failed (logged once until one succeeds). */
  private moveFailing = false;
  /** Generations of both journals come from this counter, so the newer journal has the higher one. */
  private nextGeneration = 0;
  private checkpointDue = false;
  private checkpointTimer?: NodeJS.Timeout;
  private checkpoints = 0;
  private recoveredWrites = 0;

  private constructor(
    private readonly root: RootDatabase,
    private readonly docs: Database<Buffer, Buffer>,
    private readonly catalog: Database<Buffer, string>,
    private readonly journals: Journal[],
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
    const opened: ReturnType<typeof Journal.open>[] = [];
    try {
      for (const file of JOURNAL_FILES) opened.push(Journal.open(join(path, file), JOURNAL_BYTES));
      const journals = opened.map(({ journal }) => journal);
      const store = new LmdbStore(root, docs, catalog, journals, unlock, path);
      store.recover(opened);
      markStore(path);
      store.scheduleCheckpoints();
      return store;
    } catch (error) {
      // A journal that cannot be opened or replayed leaves nothing open behind (the directory is released).
      for (const { journal } of opened) journal.close();
      void root.close();
      unlock();
      throw error;
    }
  }

  get commitStats(): StorageStats {
    const { checkpoints, recoveredWrites } = this;
    return { ...this.group.stats, checkpoints, checkpointInProgress: this.moving !== undefined, recoveredWrites };
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
      await this.drain();
    } finally {
      await Promise.allSettled(this.copying);
      for (const journal of this.journals) journal.close();
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
    await this.exclusively(() => this.drain());
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

  /**
   * Replays the journals left by a previous run into lmdb (one synced transaction), the older generation first, then
   * starts both afresh: the first (active) one with a new generation, the second with the next.
   */
  private recover(opened: { journal: Journal; records: Buffer[] }[]): void {
    const oldestFirst = [...opened].sort((a, b) => a.journal.generation - b.journal.generation);
    const writes = oldestFirst.flatMap(({ records }) => records.flatMap(decodeWrites));
    if (writes.length > 0) {
      this.root.transactionSync(() => {
        // Inside a synchronous transaction lmdb applies each write at once; their promises only echo that.
        void this.issue(writes);
      });
    }
    this.nextGeneration = Math.max(...opened.map(({ journal }) => journal.generation)) + 1;
    for (const journal of this.journals) journal.resetSync(this.nextGeneration++);
    this.recoveredWrites = writes.length;
  }

  /** Makes a batch durable: a journal record, or (larger than a journal) an lmdb commit of its own. */
  private async commit(writes: Write[]): Promise<void> {
    try {
      const payload = encodeWrites(writes);
      if (this.checkpointDue) this.startCheckpoint();
      if (!this.journals[this.active].fits(payload.length)) await this.drain();
      // After drain() both journals are reset and lmdb holds every earlier write, so this batch may go there alone.
      if (!this.journals[this.active].fits(payload.length)) return await this.applyToLmdb(writes);
      this.journals[this.active].append(payload);
      for (const write of writes) this.unapplied.push(write);
    } catch (error) {
      throw this.commitFailure(error);
    }
  }

  /**
   * Switches commits to the other journal and moves the writes of the one they leave into lmdb in the background. The
   * other journal must be reset; while a previous move failed, that move is retried instead.
   */
  private startCheckpoint(): void {
    if (this.moving) return;
    this.checkpointDue = false;
    if (!this.retiredPending) {
      if (this.unapplied.length === 0) return;
      this.retire();
    }
    this.moving = this.moveRetired().then(
      () => {
        this.moving = undefined;
        this.moveFailing = false;
      },
      (error: unknown) => {
        this.moving = undefined;
        if (!this.moveFailing) {
          const message = `moving journaled writes into lmdb failed (they stay durable in the journal; retried each checkpoint): ${describeError(error)}`;
          log({ level: 'warn', source: 'storage', message });
        }
        this.moveFailing = true;
      },
    );
  }

  /** The active journal's writes become the retired ones, and commits go to the other (reset) journal. */
  private retire(): void {
    this.retired = this.unapplied;
    this.unapplied = [];
    this.retiredPending = true;
    this.active = 1 - this.active;
  }

  /** Commits the retired writes to lmdb, then resets their journal with a generation above the active one's. */
  private async moveRetired(): Promise<void> {
    await this.applyToLmdb(this.retired);
    this.retired = [];
    await this.journals[1 - this.active].reset(this.nextGeneration++);
    this.retiredPending = false;
  }

  /**
   * Moves every journaled write into lmdb and leaves both journals reset (a journal that is full, a backup, close):
   * waits for the background move, retries it when it failed, then moves the active journal's writes the same way.
   */
  private async drain(): Promise<void> {
    await this.moving;
    if (this.retiredPending) await this.moveRetired();
    if (this.unapplied.length === 0) return;
    this.retire();
    await this.moveRetired();
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

  /** Commits writes to lmdb in one synced transaction (a checkpoint). */
  private async applyToLmdb(writes: Write[]): Promise<void> {
    await Promise.all(this.issue(writes)).catch(lmdbCommitError);
    this.checkpoints++;
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

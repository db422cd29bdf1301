/** Whether the store's durable writes share commits; surfaced in `serverStatus.embeddedMongo.storage`. */
export interface CommitStats {
  /** Commits that completed (each one fsync round of the store). */
  commits: number;
  /** Writes (document puts/removes, catalog changes) those commits made durable. */
  committedWrites: number;
  failedCommits: number;
}

/** How many event-loop turns a batch waits at most for more writes while writers are many. */
const MAX_GATHER_TURNS = 8;

/** One batch of writes and the promise its writers await. */
export interface Batch<Write> {
  readonly writes: Write[];
  readonly durable: Promise<void>;
}

interface OpenBatch<Write> extends Batch<Write> {
  settle(error?: unknown): void;
}

function openBatch<Write>(): OpenBatch<Write> {
  let resolve!: () => void;
  // The writers get the storage's own error as it was thrown, whatever its type.
  let reject!: (error: unknown) => void;
  const durable = new Promise<void>((onDurable, onFailure) => ([resolve, reject] = [onDurable, onFailure]));
  const settle = (error?: unknown) => (error === undefined ? resolve() : reject(error));
  // A failure is reported to whoever awaits the batch, never as an unhandled rejection.
  durable.catch(() => undefined);
  return { writes: [], durable, settle };
}

/**
 * Group commit: at most one commit is in flight. Writes queued while it runs form the next batch, which
 * commits as soon as the running one completed, so N writers waiting on the disk share one commit. An
 * idle store commits on the next event-loop check phase (after the current I/O callbacks queued their
 * writes), so a lone writer waits for its own commit only. While writers are many (the last commit held
 * more than one write), a batch waits further event-loop turns as long as each turn adds writes: the
 * requests that arrived while the previous ones were handled join it, so a commit (one fsync, during which
 * the thread answers nothing) covers every writer that is waiting, with no timer. A batch's promise settles
 * with its commit: resolved once the commit is durable, rejected (for every write it covered) when it failed.
 *
 * A failed batch's writes are carried into the next batch (in front, so order holds): they are applied in
 * memory already, and a transient fault (a full or read-only disk) must not leave memory and disk apart.
 * So the batch of the latest write being durable means every earlier write is, which is what `flush()` uses.
 */
export class GroupCommit<Write> {
  readonly stats: CommitStats = { commits: 0, committedWrites: 0, failedCommits: 0 };
  private queued?: OpenBatch<Write>;
  private committing?: OpenBatch<Write>;
  /** Writes of failed batches, not yet durable: they lead the next batch. */
  private carried: Write[] = [];
  /** Whether the last commit held more than one write: other writers are active, so a batch gathers longer. */
  private lastCommitShared = false;

  constructor(private readonly commit: (batch: Batch<Write>) => Promise<unknown>) {}

  /** Queues a write for the next commit and returns that commit's promise. */
  add(write: Write): Promise<void> {
    const batch = this.nextBatch();
    batch.writes.push(write);
    return batch.durable;
  }

  /**
   * Settles once everything queued so far is durable; rejects if the commit covering the latest write failed.
   * Writes left over from a failed commit are committed again first.
   */
  flush(): Promise<void> {
    if (this.carried.length > 0) return this.nextBatch().durable;
    return (this.queued ?? this.committing)?.durable ?? Promise.resolve();
  }

  /** Whether writes of a failed commit still wait for a commit that succeeds. */
  get pendingRetry(): boolean {
    return this.carried.length > 0;
  }

  private nextBatch(): OpenBatch<Write> {
    if (!this.queued) {
      this.queued = openBatch();
      append(this.queued.writes, this.carried);
      this.carried = [];
      if (!this.committing) this.startWhenNoneArrive(0);
    }
    return this.queued;
  }

  /**
   * Starts the queued batch in the next check phase, or, while writers are many, once an event-loop turn added no
   * write to it (at most MAX_GATHER_TURNS turns, so a steady stream of writes cannot hold a batch back).
   */
  private startWhenNoneArrive(turn: number): void {
    const seen = this.queued?.writes.length ?? 0;
    setImmediate(() => {
      const grew = (this.queued?.writes.length ?? 0) > seen;
      if (this.lastCommitShared && grew && turn < MAX_GATHER_TURNS) this.startWhenNoneArrive(turn + 1);
      else this.startNext();
    });
  }

  private startNext(): void {
    if (this.committing || !this.queued) return;
    const batch = this.queued;
    this.queued = undefined;
    this.committing = batch;
    // A synchronous throw fails the batch like a rejected commit.
    new Promise((resolve) => resolve(this.commit(batch))).then(
      () => this.finish(batch),
      (error: unknown) => this.finish(batch, error ?? new Error('commit failed')),
    );
  }

  private finish(batch: OpenBatch<Write>, error?: unknown): void {
    this.lastCommitShared = batch.writes.length > 1;
    if (error === undefined) {
      this.stats.commits++;
      this.stats.committedWrites += batch.writes.length;
    } else {
      this.stats.failedCommits++;
      this.carry(batch.writes);
    }
    this.committing = undefined;
    batch.settle(error);
    this.startNext();
  }

  /** Puts a failed batch's writes in front of the queued ones, or keeps them for the next batch. */
  private carry(writes: Write[]): void {
    if (!this.queued) {
      this.carried = writes;
      return;
    }
    const later = this.queued.writes.splice(0);
    append(this.queued.writes, writes);
    append(this.queued.writes, later);
  }
}

/** Appends without spreading (a batch may hold more writes than a call takes arguments). */
function append<T>(target: T[], items: T[]): void {
  for (const item of items) target.push(item);
}

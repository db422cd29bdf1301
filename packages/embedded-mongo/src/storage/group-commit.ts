/** Whether the store's durable writes share commits; surfaced in `serverStatus.embeddedMongo.storage`. */
export interface CommitStats {
  /** Commits that completed (each one fsync round of the store). */
  commits: number;
  /** Writes (document puts/removes, catalog changes) those commits made durable. */
  committedWrites: number;
  failedCommits: number;
}

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
 * writes), so a lone writer waits for its own commit only. A batch's promise settles with its commit:
 * resolved once the commit is durable, rejected (for every write it covered) when it failed.
 */
export class GroupCommit<Write> {
  readonly stats: CommitStats = { commits: 0, committedWrites: 0, failedCommits: 0 };
  private queued?: OpenBatch<Write>;
  private committing?: OpenBatch<Write>;

  constructor(private readonly commit: (batch: Batch<Write>) => Promise<unknown>) {}

  /** Queues a write for the next commit and returns that commit's promise. */
  add(write: Write): Promise<void> {
    if (!this.queued) {
      this.queued = openBatch();
      if (!this.committing) setImmediate(() => this.startNext());
    }
    this.queued.writes.push(write);
    return this.queued.durable;
  }

  /** Settles once everything queued so far is durable; rejects if the commit covering it failed. */
  flush(): Promise<void> {
    return (this.queued ?? this.committing)?.durable ?? Promise.resolve();
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
    if (error === undefined) {
      this.stats.commits++;
      this.stats.committedWrites += batch.writes.length;
    } else {
      this.stats.failedCommits++;
    }
    this.committing = undefined;
    batch.settle(error);
    this.startNext();
  }
}

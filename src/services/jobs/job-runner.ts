import { BadRequestException, ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { JobCancellation, JobCanceledError } from './job-cancellation';
import { JobView } from './job.view';
import { isFinished, JobStatus } from './job-lifecycle';
import { JobLeases } from './job-leases';
import { JobsService } from './jobs.service';

/** What running work sees of its job. */
export interface JobHandle {
  readonly id: string;
  /** Aborted (with a {@link JobCanceledError}) once the job is canceled, removed or finished by someone else. */
  readonly signal: AbortSignal;
  /** Advances `current` by `n` (default 1) and publishes the progress; throws {@link JobCanceledError} once stopped. */
  step(n?: number): Promise<JobView>;
  /** Sets the progress percentage (0..100) directly, for work without countable steps. */
  progress(percent: number): Promise<JobView>;
  /** Throws {@link JobCanceledError} if the job was stopped. */
  throwIfCanceled(): void;
}

export type JobWork = (job: JobHandle) => Promise<void>;

export interface StartedJob {
  /** The job as started (IN_PROGRESS). */
  job: JobView;
  /**
   * The job once the work ended: DONE, FAILED (with the error as its reason) or CANCELED; null if it was removed or
   * its outcome could not be stored. Never rejects.
   */
  finished: Promise<JobView | null>;
}

/**
 * Runs work as a job with live progress. The work's outcome is recorded on the job, never thrown to the caller.
 *
 * @example
 * const { job } = await runner.start('sitemap', pages.length, async (handle) => {
 *   for (const page of pages) {
 *     await writeEntry(page);
 *     await handle.step();
 *   }
 * });
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger(JobRunner.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly cancellation: JobCancellation,
    private readonly leases: JobLeases,
  ) {}

  /**
   * Starts the job and returns once it is IN_PROGRESS; the work goes on in the background, holding the job's lease
   * (stopped like a cancellation if the lease is lost).
   */
  async start(type: string, total: number, work: JobWork): Promise<StartedJob> {
    if (total < 0) throw new BadRequestException('total must be 0 or more');
    const job = await this.jobs.startOwned(type, total);
    const signal = this.cancellation.register(job.id);
    this.leases.hold(job.id);
    const finished = this.execute(this.handle(job.id, signal), work)
      .catch((error: unknown) => {
        // Callers may never await `finished`: it must not reject, even when the outcome could not be stored.
        this.logger.error(`Job ${job.id}: recording its outcome failed`, error instanceof Error ? error.stack : error);
        return null;
      })
      .finally(() => {
        this.leases.release(job.id);
        this.cancellation.release(job.id);
      });
    return { job, finished };
  }

  /** Starts the job and waits until the work has ended. */
  async run(type: string, total: number, work: JobWork): Promise<JobView | null> {
    return (await this.start(type, total, work)).finished;
  }

  private handle(id: string, signal: AbortSignal): JobHandle {
    const guarded = async (write: () => Promise<JobView>): Promise<JobView> => {
      signal.throwIfAborted();
      try {
        return await write();
      } catch (error) {
        throw await this.stoppedOr(id, error);
      }
    };
    return {
      id,
      signal,
      step: (n = 1) => guarded(() => this.jobs.incrementJob(id, n)),
      progress: (percent) => guarded(() => this.jobs.updateProgress(id, percent)),
      throwIfCanceled: () => signal.throwIfAborted(),
    };
  }

  private async execute(handle: JobHandle, work: JobWork): Promise<JobView | null> {
    const { id, signal } = handle;
    try {
      await work(handle);
      signal.throwIfAborted();
      return await this.settle(id, () => this.jobs.finish(id, JobStatus.DONE));
    } catch (error) {
      if (signal.aborted) return this.settle(id);
      this.logger.error(`Job ${id} failed`, error instanceof Error ? error.stack : String(error));
      return this.settle(id, () => this.jobs.finish(id, JobStatus.FAILED, reasonOf(error)));
    }
  }

  /** The job's final state after `write`, or the state that someone else's cancel or removal left. */
  private async settle(id: string, write?: () => Promise<JobView>): Promise<JobView | null> {
    try {
      if (write) return await write();
    } catch (error) {
      if (!isStopped(error)) throw error;
    }
    return this.jobs.view(id).catch(() => null);
  }

  /** A write refused because the job was stopped elsewhere becomes a cancellation of this work. */
  private async stoppedOr(id: string, error: unknown): Promise<unknown> {
    if (!isStopped(error)) return error;
    const job = await this.jobs.view(id).catch(() => null);
    if (job && !isFinished(job.status)) return error;
    const reason = job ? job.status : 'removed';
    this.cancellation.abort(id, reason);
    return new JobCanceledError(id, reason);
  }
}

/** The errors a job write gets once the job is finished (409) or gone (404). */
function isStopped(error: unknown): boolean {
  return error instanceof ConflictException || error instanceof NotFoundException;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

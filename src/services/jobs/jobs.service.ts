import {
  BadRequestException,
  ConflictException,
  Logger,
  NotFoundException,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { Bean, Exposed, MapOf } from '../../bean';
import { RepositoryDescription } from '../../common/mongo/repository-description';
import { Role } from '../../common/principal';
import { parseSearchRequest, planSearch, SearchSpec } from '../../common/search';
import { EventPublisher, LiveEvent } from '../../realtime/event-publisher';
import { ScheduledTask } from '../../scheduling/scheduled-task.decorator';
import { JobCancellation } from './job-cancellation';
import { JobDto } from './job.dto';
import { JobLeases } from './job-leases';
import { assertTransition, isFinished, JobStatus, progressOf } from './job-lifecycle';
import { ExpiredJobs, JobPatch, JobRepository } from './job.repository';
import { Job } from './job.schema';
import { JobSearchResponse, JobView, StoredJob, toView } from './job.view';

/** Compare-and-set retries before giving up on a job that many writers change at once. */
const MAX_ATTEMPTS = 100;

const SEARCH: SearchSpec = {
  searchableFields: ['type', 'description', 'status', 'reason'],
  filterableFields: [
    ...['type', 'description', 'status', 'reason', 'current', 'total', 'progress'],
    ...['startedAt', 'finishedAt', 'createdAt', 'updatedAt'],
  ],
  defaultSort: { createdAt: -1 },
  closedFields: { status: Object.values(JobStatus) },
};

export const INTERRUPTED_REASON = 'The process running the job stopped before the job finished';
export const SHUTDOWN_REASON = 'The instance running the job shut down before the job finished; start it again';

/**
 * Jobs and their lifecycle (DESIGN §7). Every write is one conditional write of {@link JobRepository}, conditioned
 * on the job being unfinished, so a finished job is never changed: steps are a pipeline update computed by the database, other
 * changes compare-and-set on the (status, revision) they were computed from and retry on a miss. Concurrent
 * changes are never lost. Every change is published on `/topic/job/{id}` and `/topic/jobs`.
 *
 * Across instances (see {@link JobLeases}): every write moves the job's lease `JOB_LEASE_MS` ahead. An instance
 * that starts fails the unfinished jobs whose lease expired; while it runs it fails, every `JOB_LEASE_MS`, the
 * expired jobs that a handler owned (its instance stopped without finishing them). A job's handler is a closure
 * of the process that started it, so another instance cannot take it over: it fails it. For the same reason an
 * instance that shuts down fails the jobs its handlers run at once, rather than leave them for the sweep.
 */
@Bean('jobsManagementServiceImpl', Role.ADMIN)
export class JobsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(JobsService.name);

  constructor(
    private readonly jobs: JobRepository,
    private readonly events: EventPublisher,
    private readonly cancellation: JobCancellation,
    private readonly leases: JobLeases,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.init();
  }

  /** Runs before the HTTP server and the database close (Nest's order), so the writes below still reach the store. */
  async onModuleDestroy(): Promise<void> {
    await this.failJobsOfThisInstance();
  }

  /** Describes the store behind the bean: there is no Spring repository object to hand out over JSON. */
  @Exposed()
  getRepository(): Promise<RepositoryDescription> {
    return this.jobs.describe();
  }

  /** Start-up work: NEW or IN_PROGRESS jobs whose lease expired become FAILED. */
  @Exposed()
  async init(): Promise<void> {
    await this.setUnfinishedJobsToFailed();
  }

  @Exposed(['Map'])
  async searchJobs(requestMap: Record<string, unknown>): Promise<JobSearchResponse> {
    const plan = planSearch(parseSearchRequest(requestMap), SEARCH);
    const { content, total } = await this.jobs.search(plan);
    return { items: content.map(toView), total };
  }

  /** Creates a job, NEW unless the map says IN_PROGRESS; an `id` in the map is ignored. */
  @Exposed([MapOf(JobDto)])
  async createJob(job: JobDto): Promise<JobView> {
    const status = job.status ?? JobStatus.NEW;
    if (isFinished(status)) throw new BadRequestException(`A job is created NEW or IN_PROGRESS, not ${status}`);
    const created = await this.jobs.insert({
      ...countsOf(job),
      type: job.type,
      description: job.description ?? '',
      status,
      startedAt: status === JobStatus.IN_PROGRESS ? new Date() : undefined,
      leaseUntil: this.leases.until(),
    });
    return this.published(created);
  }

  /** Replaces the job's fields with the map (defaults included), following the lifecycle; without `id` it creates. */
  @Exposed([MapOf(JobDto)])
  async saveJob(job: JobDto): Promise<JobView> {
    if (!job.id) return this.createJob(job);
    const { id, type, description = '' } = job;
    const counts = countsOf(job);
    const view = await this.compareAndSet(id, (stored) => {
      const status = job.status ?? stored.status;
      assertTransition(id, stored.status, status);
      return { type, description, ...counts, ...effectsOf(stored.status, status, counts.total) };
    });
    if (isFinished(view.status)) this.cancellation.abort(id, view.status);
    return view;
  }

  @Exposed(['String', 'int'])
  async startJob(type: string, total: number): Promise<JobView> {
    if (type.trim() === '') throw new BadRequestException('A job needs a type');
    if (total < 0) throw new BadRequestException('total must be 0 or more');
    return this.createStarted(type, total);
  }

  /** Starts a job whose lease this instance holds (its handler runs here); see {@link JobLeases.hold}. */
  async startOwned(type: string, total: number): Promise<JobView> {
    if (type.trim() === '') throw new BadRequestException('A job needs a type');
    return this.createStarted(type, total, this.leases.owner);
  }

  private async createStarted(type: string, total: number, leaseOwner?: string): Promise<JobView> {
    const now = new Date();
    const started = { type, total, status: JobStatus.IN_PROGRESS, startedAt: now, leaseUntil: this.leases.until(now) };
    return this.published(await this.jobs.insert({ ...started, leaseOwner }));
  }

  /** Asks for cancellation: the job becomes CANCELED and its running work stops at its next step. Idempotent. */
  @Exposed(['String'])
  async cancelJob(jobId: string): Promise<void> {
    const job = await this.findOrThrow(jobId);
    if (job.status !== JobStatus.CANCELED) await this.toCanceled(jobId);
  }

  @Exposed(['String'])
  async toCanceled(jobId: string): Promise<JobView> {
    return this.finish(jobId, JobStatus.CANCELED, 'Canceled on request');
  }

  @Exposed(['String'])
  async toDone(jobId: string): Promise<JobView> {
    return this.finish(jobId, JobStatus.DONE);
  }

  @Exposed(['String'])
  async toFailed(jobId: string): Promise<JobView> {
    return this.finish(jobId, JobStatus.FAILED, 'Marked as failed on request');
  }

  /** Moves the job to a finished status; `reason` is kept for FAILED and CANCELED. */
  async finish(jobId: string, status: JobStatus, reason?: string): Promise<JobView> {
    const view = await this.compareAndSet(jobId, (stored) => {
      assertTransition(jobId, stored.status, status);
      return { ...effectsOf(stored.status, status, stored.total), ...(reason ? { reason } : {}) };
    });
    this.cancellation.abort(jobId, status);
    return view;
  }

  /** Sets `progress` directly (0..100), leaving `current` alone; a NEW job starts. */
  @Exposed(['String', 'int'])
  async updateProgress(jobId: string, progress: number): Promise<JobView> {
    if (progress < 0 || progress > 100) throw new BadRequestException('progress must be within 0..100');
    return this.compareAndSet(jobId, (stored) => ({ ...startIfNew(jobId, stored), progress }));
  }

  /** Moves `current` up by `step` (≥ 0), stopping at `total`; a NEW job starts. */
  @Exposed(['String', 'int'])
  async incrementJob(jobId: string, step: number): Promise<JobView> {
    return this.move(jobId, nonNegative(step));
  }

  /** Moves `current` down by `step` (≥ 0), stopping at 0; a NEW job starts. */
  @Exposed(['String', 'int'])
  async decrementJob(jobId: string, step: number): Promise<JobView> {
    return this.move(jobId, -nonNegative(step));
  }

  /** Fails every NEW or IN_PROGRESS job whose lease expired: no instance runs it and no client wrote it since. */
  @Exposed()
  async setUnfinishedJobsToFailed(): Promise<void> {
    const failed = await this.failExpired('any');
    if (failed > 0) this.logger.warn(`Marked ${failed} unfinished job(s) with an expired lease as FAILED`);
  }

  /** Jobs a handler owned whose lease expired: its instance stopped without finishing them. */
  @ScheduledTask({
    name: 'expired-jobs',
    everyMs: (config) => config.jobLeaseMs,
    reports: 'unfinished job(s) with an expired lease marked FAILED',
  })
  failExpiredOwnedJobs(): Promise<number> {
    return this.failExpired('handler-run');
  }

  /**
   * At shutdown: every unfinished job whose handler runs here becomes FAILED with {@link SHUTDOWN_REASON} and its
   * handler is stopped. A handler cannot move to another instance, and failing it now tells the client at once
   * instead of after `JOB_LEASE_MS`. Errors are logged: shutdown goes on (the sweep fails the job later).
   */
  private async failJobsOfThisInstance(): Promise<void> {
    try {
      const held = await this.jobs.unfinishedIdsHeldBy(this.leases.owner);
      for (const jobId of held) await this.failHeld(jobId);
      if (held.length > 0) this.logger.warn(`Shutting down: marked ${held.length} running job(s) as FAILED`);
    } catch (error) {
      this.logger.error('Failing running jobs at shutdown', error instanceof Error ? error.stack : String(error));
    }
  }

  private async failHeld(jobId: string): Promise<void> {
    const failed = await this.jobs.failIfHeldBy(jobId, this.leases.owner, SHUTDOWN_REASON);
    if (!failed) return; // finished meanwhile
    this.published(failed);
    this.cancellation.abort(jobId, JobStatus.FAILED);
  }

  private async failExpired(which: ExpiredJobs): Promise<number> {
    const expired = await this.jobs.expiredIds(new Date(), which);
    let failed = 0;
    for (const jobId of expired) if (await this.failOrphan(jobId)) failed++;
    return failed;
  }

  @Exposed(['IdList'])
  async removeJobsByIds(jobsIds: string[]): Promise<void> {
    const removed = await this.jobs.remove(jobsIds);
    removed.forEach((jobId) => this.removed(jobId));
  }

  /** Removes the job and stops its running work. */
  @Exposed(['String'])
  async removeJobAndClean(jobId: string): Promise<void> {
    const job = await this.findOrThrow(jobId);
    await this.jobs.removeOne(job._id);
    this.removed(jobId);
  }

  /** The job as the API shows it; 404 when it does not exist. */
  async view(jobId: string): Promise<JobView> {
    return toView(await this.findOrThrow(jobId));
  }

  private async findOrThrow(jobId: string): Promise<StoredJob> {
    const job = await this.jobs.find(jobId);
    if (!job) throw new NotFoundException(`Job ${jobId} not found`);
    return job;
  }

  /** A step is one conditional pipeline update; a miss means the job is gone (404) or finished (409). */
  private async move(jobId: string, step: number): Promise<JobView> {
    const now = new Date();
    const updated = await this.jobs.step(jobId, step, now, this.leases.until(now));
    if (updated) return this.published(updated);
    const stored = await this.findOrThrow(jobId);
    throw new ConflictException(`Job ${jobId} is already ${stored.status} and cannot be changed`);
  }

  /**
   * Fails the job if its lease is still expired, in one conditional write: a renewal or a step that came first
   * keeps it alive. False when it was finished, removed or renewed since it was listed.
   */
  private async failOrphan(jobId: string): Promise<boolean> {
    const failed = await this.jobs.failIfExpired(jobId, new Date(), INTERRUPTED_REASON);
    if (!failed) return false;
    this.published(failed);
    this.cancellation.abort(jobId, JobStatus.FAILED);
    return true;
  }

  /** Applies `change` to the job's latest state with compare-and-set on (status, revision). */
  private async compareAndSet(jobId: string, change: (stored: StoredJob) => JobPatch): Promise<JobView> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await this.findOrThrow(jobId);
      const patch = change(stored);
      const updated = await this.jobs.setIfUnchanged(stored, patch, this.leases.until());
      if (updated) return this.published(updated);
    }
    throw new ConflictException(`Job ${jobId} is being changed by too many writers at once; retry`);
  }

  private published(job: StoredJob): JobView {
    const view = toView(job);
    this.publish(view.id, { event: 'job.updated', id: view.id, data: view });
    return view;
  }

  private removed(jobId: string): void {
    this.cancellation.abort(jobId, 'removed');
    this.publish(jobId, { event: 'job.removed', id: jobId, data: null });
  }

  private publish(jobId: string, event: LiveEvent): void {
    this.events.publish(`/topic/job/${jobId}`, event);
    this.events.publish('/topic/jobs', event);
  }
}

/** current/total/progress of a job map: `current` within `0..total`, progress derived when total > 0. */
function countsOf(job: JobDto): Pick<Job, 'current' | 'total' | 'progress'> {
  if (job.current > job.total) throw new BadRequestException('current must be within 0..total');
  return { current: job.current, total: job.total, progress: progressOf(job.current, job.total, job.progress) };
}

/** The fields a move from `from` into `status` sets besides the status itself. */
function effectsOf(from: JobStatus, status: JobStatus, total: number): JobPatch {
  if (status === from) return {};
  const now = new Date();
  switch (status) {
    case JobStatus.IN_PROGRESS:
      return { status, startedAt: now };
    case JobStatus.DONE:
      return { status, finishedAt: now, current: total, progress: 100 };
    case JobStatus.FAILED:
    case JobStatus.CANCELED:
      return { status, finishedAt: now };
    case JobStatus.NEW:
      return { status };
  }
}

function startIfNew(jobId: string, stored: StoredJob): JobPatch {
  assertTransition(jobId, stored.status, JobStatus.IN_PROGRESS);
  return effectsOf(stored.status, JobStatus.IN_PROGRESS, stored.total);
}

function nonNegative(step: number): number {
  if (step < 0) throw new BadRequestException('step must be 0 or more (use the opposite method to go back)');
  return step;
}

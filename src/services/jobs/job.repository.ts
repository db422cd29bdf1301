import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, Model, Types } from 'mongoose';
import { describeRepository, RepositoryDescription } from '../../common/mongo/repository-description';
import { runSearch, SearchPlan } from '../../common/search';
import { JobStatus, UNFINISHED_STATUSES } from './job-lifecycle';
import { Job } from './job.schema';
import { stepUpdate } from './job-step.update';
import { StoredJob } from './job.view';

/** The fields a compare-and-set may change. */
export type JobPatch = Partial<Omit<Job, 'revision' | 'createdAt' | 'updatedAt'>>;

/** The fields a job is created with. */
export type NewJob = Pick<Job, 'type' | 'status' | 'total' | 'leaseUntil'> & Partial<Job>;

/** Which expired jobs {@link JobRepository.expiredIds} lists. */
export type ExpiredJobs = 'any' | 'handler-run';

/** Matches the jobs still open to change: NEW or IN_PROGRESS. */
const UNFINISHED = { status: { $in: UNFINISHED_STATUSES } };

/** Unfinished jobs whose lease passed (or that never had one, stored before leases existed). */
function expiredLease(now: Date): Record<string, unknown> {
  return { ...UNFINISHED, $or: [{ leaseUntil: { $lt: now } }, { leaseUntil: null }] };
}

/**
 * The only code that writes the `jobs` collection (checked by `test/architecture/collection-writers.spec.ts`): the
 * jobs bean and the leases ask it by intent. Every update of a job is one write conditioned on the job being
 * unfinished, so a finished job is never changed (only removed); each answers the job as written, or null (false)
 * when the condition missed and the caller decides whether to read again, retry or refuse. Every update but a lease
 * renewal counts the job's `revision` up.
 */
@Injectable()
export class JobRepository {
  constructor(@InjectModel(Job.name) private readonly jobs: Model<Job>) {}

  /** What `getRepository()` answers: the store described, a Spring repository has no JSON form. */
  describe(): Promise<RepositoryDescription> {
    return describeRepository('JobRepository', this.jobs);
  }

  /** The job, or null for an unknown or malformed id. */
  find(jobId: string): Promise<StoredJob | null> {
    return isValidObjectId(jobId) ? this.jobs.findById(jobId).lean<StoredJob>().exec() : Promise.resolve(null);
  }

  search(plan: SearchPlan): Promise<{ content: StoredJob[]; total: number }> {
    return runSearch<StoredJob>(this.jobs, plan);
  }

  /** Ids of the unfinished jobs whose lease expired by `now`: any, or only those a handler ran (that had an owner). */
  expiredIds(now: Date, which: ExpiredJobs): Promise<string[]> {
    const owned = which === 'handler-run' ? { leaseOwner: { $exists: true } } : {};
    return this.ids({ ...expiredLease(now), ...owned });
  }

  /** Ids of the unfinished jobs whose lease `owner` holds. */
  unfinishedIdsHeldBy(owner: string): Promise<string[]> {
    return this.ids({ ...UNFINISHED, leaseOwner: owner });
  }

  private async ids(filter: Record<string, unknown>): Promise<string[]> {
    const found = await this.jobs.find(filter, { _id: 1 }).lean().exec();
    return found.map(({ _id }) => _id.toString());
  }

  async insert(job: NewJob): Promise<StoredJob> {
    const created = await this.jobs.create(job);
    return created.toObject<StoredJob>();
  }

  /** Sets `patch` and the lease if the job still has the status and revision it was read with. */
  setIfUnchanged(stored: StoredJob, patch: JobPatch, leaseUntil: Date): Promise<StoredJob | null> {
    const filter = { _id: stored._id, status: stored.status, revision: stored.revision };
    return this.jobs
      .findOneAndUpdate(filter, { $set: { ...patch, leaseUntil }, $inc: { revision: 1 } }, { returnDocument: 'after' })
      .lean<StoredJob>()
      .exec();
  }

  /** Moves an unfinished job's `current` by `step` in one pipeline update computed by the database (job-step.update). */
  step(jobId: string, step: number, now: Date, leaseUntil: Date): Promise<StoredJob | null> {
    if (!isValidObjectId(jobId)) return Promise.resolve(null);
    return this.jobs
      .findOneAndUpdate({ _id: jobId, ...UNFINISHED }, stepUpdate(step, now, leaseUntil), {
        returnDocument: 'after',
        updatePipeline: true,
        timestamps: false,
      })
      .lean<StoredJob>()
      .exec();
  }

  /** Fails the job with `reason` if its lease is still expired at `now`: a renewal or step that came first wins. */
  failIfExpired(jobId: string, now: Date, reason: string): Promise<StoredJob | null> {
    return this.fail({ _id: jobId, ...expiredLease(now) }, now, reason);
  }

  /** Fails the job with `reason` if it is unfinished and `owner` holds its lease. */
  failIfHeldBy(jobId: string, owner: string, reason: string): Promise<StoredJob | null> {
    return this.fail({ _id: jobId, ...UNFINISHED, leaseOwner: owner }, new Date(), reason);
  }

  private fail(filter: Record<string, unknown>, now: Date, reason: string): Promise<StoredJob | null> {
    return this.jobs
      .findOneAndUpdate(
        filter,
        { $set: { status: JobStatus.FAILED, finishedAt: now, reason }, $inc: { revision: 1 } },
        { returnDocument: 'after' },
      )
      .lean<StoredJob>()
      .exec();
  }

  /** Moves the lease of an unfinished job `owner` holds to `until`; false when the job is no longer so. */
  async renewLease(jobId: string, owner: string, until: Date): Promise<boolean> {
    const { matchedCount } = await this.jobs
      .updateOne(
        { _id: jobId, ...UNFINISHED, leaseOwner: owner },
        { $set: { leaseUntil: until } },
        { timestamps: false },
      )
      .exec();
    return matchedCount > 0;
  }

  /** Removes those of `jobIds` that exist (malformed ids are ignored); answers their ids. */
  async remove(jobIds: string[]): Promise<string[]> {
    const ids = jobIds.filter((id) => isValidObjectId(id));
    const existing = await this.jobs
      .find({ _id: { $in: ids } }, { _id: 1 })
      .lean()
      .exec();
    await this.jobs.deleteMany({ _id: { $in: existing.map((job) => job._id) } }).exec();
    return existing.map((job) => job._id.toString());
  }

  async removeOne(jobId: Types.ObjectId): Promise<void> {
    await this.jobs.deleteOne({ _id: jobId }).exec();
  }
}

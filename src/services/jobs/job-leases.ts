import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AppConfig } from '../../config/app-config';
import { JobCancellation } from './job-cancellation';
import { JobRepository } from './job.repository';

/**
 * The leases this instance holds on the jobs its handlers run. A lease is renewed every third of `JOB_LEASE_MS`
 * with a write conditioned on this instance still owning the unfinished job; when that write misses (the job was
 * finished, removed or failed as expired by another instance) the handler is stopped, so two instances never run
 * the same handler at once.
 */
@Injectable()
export class JobLeases implements OnModuleDestroy {
  /** This process, as lease owner: unique even for two instances on one host. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly durationMs: number;
  /** Leases (and lease locks) are renewed every third of their duration. */
  readonly renewEveryMs: number;
  private readonly renewals = new Map<string, NodeJS.Timeout>();

  constructor(
    config: AppConfig,
    private readonly jobs: JobRepository,
    private readonly cancellation: JobCancellation,
  ) {
    this.durationMs = config.jobLeaseMs;
    this.renewEveryMs = Math.max(100, Math.floor(this.durationMs / 3));
  }

  /** The expiry of a lease taken or renewed now. */
  until(now = new Date()): Date {
    return new Date(now.getTime() + this.durationMs);
  }

  /** Keeps renewing the lease this instance took on the job until {@link release}. */
  hold(jobId: string): void {
    const timer = setInterval(() => void this.renew(jobId), this.renewEveryMs);
    timer.unref();
    this.renewals.set(jobId, timer);
  }

  release(jobId: string): void {
    clearInterval(this.renewals.get(jobId));
    this.renewals.delete(jobId);
  }

  onModuleDestroy(): void {
    [...this.renewals.keys()].forEach((jobId) => this.release(jobId));
  }

  private async renew(jobId: string): Promise<void> {
    const renewed = await this.jobs.renewLease(jobId, this.owner, this.until()).catch(() => undefined); // The database unreachable for a moment: the next renewal tries again.
    if (renewed === false) {
      this.release(jobId);
      this.cancellation.abort(jobId, 'its lease was lost');
    }
  }
}

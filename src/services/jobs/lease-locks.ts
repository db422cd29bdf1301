import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { JobLeases } from './job-leases';
import { LeaseLock } from './lease-lock.schema';

/** A lock this instance holds; release it when the work is over. */
export interface HeldLock {
  release(): Promise<void>;
  /** False once the lock lapsed (its renewals failed for `JOB_LEASE_MS`) or was released. */
  stillHeld(): Promise<boolean>;
}

/**
 * Named locks that hold across instances: a document in `lease_locks`, taken only when absent or expired (one
 * conditional upsert), renewed every third of `JOB_LEASE_MS` while held, and free again once its holder released it
 * or stopped renewing it for `JOB_LEASE_MS`.
 */
@Injectable()
export class LeaseLocks implements OnModuleDestroy {
  private readonly renewals = new Set<NodeJS.Timeout>();

  constructor(
    @InjectModel(LeaseLock.name) private readonly locks: Model<LeaseLock>,
    private readonly leases: JobLeases,
  ) {}

  /** Takes the lock, or returns null while someone holds it. */
  async tryAcquire(name: string): Promise<HeldLock | null> {
    const owner = `${this.leases.owner}:${randomUUID().slice(0, 8)}`;
    const now = new Date();
    try {
      const take = { $set: { owner, until: this.leases.until(now) } };
      await this.locks.updateOne({ _id: name, until: { $lt: now } }, take, { upsert: true }).exec();
    } catch (error) {
      // The upsert collides with the lock's live document: someone else holds it.
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
    const timer = setInterval(() => void this.renew(name, owner), this.leases.renewEveryMs);
    timer.unref();
    this.renewals.add(timer);
    return {
      release: async () => {
        clearInterval(timer);
        this.renewals.delete(timer);
        await this.locks.deleteOne({ _id: name, owner }).exec();
      },
      stillHeld: async () =>
        (await this.locks.exists({ _id: name, owner, until: { $gte: new Date() } }).exec()) !== null,
    };
  }

  /** Whether someone holds the lock now. */
  async isHeld(name: string): Promise<boolean> {
    return (await this.locks.exists({ _id: name, until: { $gte: new Date() } }).exec()) !== null;
  }

  onModuleDestroy(): void {
    this.renewals.forEach(clearInterval);
    this.renewals.clear();
  }

  private async renew(name: string, owner: string): Promise<void> {
    await this.locks
      .updateOne({ _id: name, owner }, { $set: { until: this.leases.until() } })
      .exec()
      .catch(() => undefined); // The database unreachable for a moment: the next renewal tries again.
  }
}

import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { SharedRedis } from '../../shared-state/shared-redis';
import { SlidingWindowStorage } from './sliding-window.storage';

/**
 * The bean rate limit's counters in Redis (shared by every instance) while Redis answers, in this process while it
 * does not: a Redis outage never turns a bean call into an error (see {@link SharedRedis.orLocal}).
 */
export class FailSoftThrottlerStorage implements ThrottlerStorage {
  private readonly local = new SlidingWindowStorage();

  constructor(
    private readonly redis: SharedRedis,
    private readonly remote: ThrottlerStorage,
  ) {}

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return this.redis.orLocal(
      () => this.remote.increment(key, ttl, limit, blockDuration, throttlerName),
      () => this.local.increment(key, ttl, limit, blockDuration),
    );
  }
}

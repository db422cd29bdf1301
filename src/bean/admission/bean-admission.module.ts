import { Global, Module } from '@nestjs/common';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ThrottlerStorage } from '@nestjs/throttler';
import { SharedRedis } from '../../shared-state/shared-redis';
import { BeanAdmission } from './bean-admission';
import { BeanRateLimit } from './bean-rate-limit';
import { FailSoftThrottlerStorage } from './fail-soft.storage';
import { SlidingWindowStorage } from './sliding-window.storage';

/** The admission in front of the invoker, for every transport (REST controller, STOMP). */
@Global()
@Module({
  providers: [
    BeanRateLimit,
    BeanAdmission,
    // The rate-limit counters: a sliding window in-process, or a fixed window in Redis
    // (`@nest-lab/throttler-storage-redis`) shared by every instance when `REDIS_URL` is set, in-process while
    // Redis cannot be reached.
    {
      provide: ThrottlerStorage,
      inject: [SharedRedis],
      useFactory: (redis: SharedRedis): ThrottlerStorage =>
        redis.client
          ? new FailSoftThrottlerStorage(redis, new ThrottlerStorageRedisService(redis.client))
          : new SlidingWindowStorage(),
    },
  ],
  exports: [BeanAdmission],
})
export class BeanAdmissionModule {}

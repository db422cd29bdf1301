import { Module } from '@nestjs/common';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { SharedRedis } from '../shared-state/shared-redis';
import { BeanController } from './bean.controller';
import { BeanThrottlerGuard } from './bean-throttler.guard';
import { SlidingWindowStorage } from './sliding-window.storage';

const ONE_MINUTE_MS = 60_000;

/**
 * The HTTP face of the bean gateway, rate limited per principal: in a sliding window in-process, or in a fixed
 * window in Redis (`@nest-lab/throttler-storage-redis`) shared by every instance when `REDIS_URL` is set.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, SharedRedis],
      useFactory: (config: AppConfig, redis: SharedRedis) => ({
        storage: redis.client ? new ThrottlerStorageRedisService(redis.client) : new SlidingWindowStorage(),
        throttlers: [{ name: 'bean-calls', ttl: ONE_MINUTE_MS, limit: config.beanRateLimitPerMinute }],
        errorMessage: `Too many calls: at most ${config.beanRateLimitPerMinute} per minute`,
      }),
    }),
  ],
  controllers: [BeanController],
  providers: [BeanThrottlerGuard],
})
export class BeanModule {}

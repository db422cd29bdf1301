import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { BeanController } from './bean.controller';
import { BeanThrottlerGuard } from './bean-throttler.guard';
import { SlidingWindowStorage } from './sliding-window.storage';

const ONE_MINUTE_MS = 60_000;

/** The HTTP face of the bean gateway, rate limited per principal. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        storage: new SlidingWindowStorage(),
        throttlers: [{ name: 'bean-calls', ttl: ONE_MINUTE_MS, limit: config.beanRateLimitPerMinute }],
        errorMessage: `Too many calls: at most ${config.beanRateLimitPerMinute} per minute`,
      }),
    }),
  ],
  controllers: [BeanController],
  providers: [BeanThrottlerGuard],
})
export class BeanModule {}

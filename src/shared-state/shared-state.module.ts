import { Global, Module } from '@nestjs/common';
import { sharedCountersProvider } from './shared-counters';
import { SharedRedis } from './shared-redis';

/** Per-request state every instance must see alike: in Redis when `REDIS_URL` is set, in-process otherwise. */
@Global()
@Module({
  providers: [SharedRedis, sharedCountersProvider],
  exports: [SharedRedis, sharedCountersProvider],
})
export class SharedStateModule {}

import { Global, Module } from '@nestjs/common';
import { ClusterSignals } from './cluster-signals';
import { sharedCountersProvider } from './shared-counters';
import { SharedRedis } from './shared-redis';

/**
 * Per-request state every instance must see alike, and notices between instances: in Redis when `REDIS_URL` is set,
 * in-process otherwise.
 */
@Global()
@Module({
  providers: [SharedRedis, sharedCountersProvider, ClusterSignals],
  exports: [SharedRedis, sharedCountersProvider, ClusterSignals],
})
export class SharedStateModule {}

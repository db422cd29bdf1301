import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ThrottlerStorage } from '@nestjs/throttler';
import { BeanAdmission } from './admission/bean-admission';
import { BeanRateLimit } from './admission/bean-rate-limit';
import { SlidingWindowStorage } from './admission/sliding-window.storage';
import { BeanInvoker } from './bean-invoker';
import { BeanRegistry } from './bean-registry';

/** The registry, the invoker and the admission in front of it, available to every transport (REST, STOMP). */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    BeanRegistry,
    BeanInvoker,
    BeanRateLimit,
    BeanAdmission,
    // The rate-limit counters; a storage shared by several instances replaces this one provider.
    { provide: ThrottlerStorage, useClass: SlidingWindowStorage },
  ],
  exports: [BeanRegistry, BeanInvoker, BeanAdmission],
})
export class BeanCoreModule {}

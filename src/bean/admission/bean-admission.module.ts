import { Global, Module } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { BeanAdmission } from './bean-admission';
import { BeanRateLimit } from './bean-rate-limit';
import { SlidingWindowStorage } from './sliding-window.storage';

/** The admission in front of the invoker, for every transport (REST controller, STOMP). */
@Global()
@Module({
  providers: [
    BeanRateLimit,
    BeanAdmission,
    // The rate-limit counters; a storage shared by several instances replaces this one provider.
    { provide: ThrottlerStorage, useClass: SlidingWindowStorage },
  ],
  exports: [BeanAdmission],
})
export class BeanAdmissionModule {}

import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { BeanInvoker } from './bean-invoker';
import { BeanRegistry } from './bean-registry';

/** The registry and the invoker, available to every transport (REST controller, STOMP). */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [BeanRegistry, BeanInvoker],
  exports: [BeanRegistry, BeanInvoker],
})
export class BeanCoreModule {}

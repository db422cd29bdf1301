import { Global, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { DomainEvents } from './domain-events';

/** The domain-event bus, global: any module emits with {@link DomainEvents} and listens with `@OnDomainEvent`. */
@Global()
@Module({
  // No wildcards and no delimiter: event names are matched whole ('order.paid' is one name, not a path).
  imports: [EventEmitterModule.forRoot({ wildcard: false, maxListeners: 20 })],
  providers: [DomainEvents],
  exports: [DomainEvents],
})
export class DomainEventsModule {}

import { Injectable } from '@nestjs/common';
import { EventEmitter2, OnEvent } from '@nestjs/event-emitter';
import { DomainEventMap, DomainEventName } from './domain-event-map';

/**
 * The one bus of domain events (`@nestjs/event-emitter`, typed by {@link DomainEventMap}). `emit` runs every
 * listener on this instance and resolves once all of them have finished; it rejects when one failed (the others
 * still run), so the emitter decides what a failure means: a webhook answers 500 and is redelivered, a transition
 * logs it, the move to PAID keeps its order marked for the retry sweep.
 */
@Injectable()
export class DomainEvents {
  constructor(private readonly emitter: EventEmitter2) {}

  async emit<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): Promise<void> {
    await this.emitter.emitAsync(name, payload);
  }
}

/**
 * Marks a method as a listener of a domain event; it receives the event's payload, and its failure reaches the
 * emitter (nothing is swallowed here). Listeners are discovered on every provider at application bootstrap.
 * @example
 * \@OnDomainEvent('order.paid')
 * async issueInvoice({ order }: OrderEvent): Promise<void> { ... }
 */
export function OnDomainEvent<K extends DomainEventName>(
  name: K,
): <T extends (payload: DomainEventMap[K]) => Promise<void>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<T>,
) => void {
  return OnEvent(name, { suppressErrors: false });
}

import { Injectable } from '@nestjs/common';
import { CardPaymentEvent } from './card-payment.provider';

export type CardPaymentEventHandler = (event: CardPaymentEvent) => Promise<void>;

/**
 * Hands authentic, first-seen card payment events to the modules that settle them (orders), so payments does not
 * depend on its users.
 * @example events.subscribe((event) => this.settle(event));
 */
@Injectable()
export class CardPaymentEvents {
  private readonly handlers: CardPaymentEventHandler[] = [];

  subscribe(handler: CardPaymentEventHandler): void {
    this.handlers.push(handler);
  }

  async dispatch(event: CardPaymentEvent): Promise<void> {
    for (const handler of this.handlers) await handler(event);
  }
}

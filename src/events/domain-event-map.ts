import type { CardChargeEvent, CardRefundEvent } from '../services/payments/card-payment.provider';
import type { TrackingEvent } from '../services/delivery/logistics.provider';
import type { StoredOrder } from '../services/orders/order.view';

/** An order as it is after a move, with the time line entry the move appended (status, when, by whom, refund). */
export interface OrderEvent {
  order: StoredOrder;
  entry: StoredOrder['orderTimeLines'][number];
}

/**
 * Every domain event: its name and its payload, in one place. Emitted with {@link DomainEvents.emit}, heard with
 * {@link OnDomainEvent}; the table of who emits and who listens is in `src/services/orders/README.md`.
 *
 * The `payment.*`, `refund.*` and `parcel.*` events carry a provider's authentic (signed, first-seen) notice, not a
 * fact: their listeners confirm it with the provider before they change anything.
 */
export interface DomainEventMap {
  /** An order was created (checkout, a digital checkout, an ADMIN's `createOrder`). */
  'order.placed': OrderEvent;
  /** An order became PAID. Delivered durably: redelivered by `OrderPaidRetry` until every listener succeeded. */
  'order.paid': OrderEvent;
  'order.shipped': OrderEvent;
  'order.delivered': OrderEvent;
  /** An order became CANCELED (`entry.refundId` when the buyer's cancellation of a paid order was refunded). */
  'order.canceled': OrderEvent;
  /** A refund of the order settled (`entry.refundId`); the status is REFUNDED, or unchanged for a partial refund. */
  'order.refunded': OrderEvent;
  /** The card provider says a charge succeeded (`payment_intent.succeeded`). */
  'payment.succeeded': CardChargeEvent;
  /** The card provider says a charge failed (`payment_intent.payment_failed`). */
  'payment.failed': CardChargeEvent;
  /** The card provider says a refund succeeded (`charge.refunded`). */
  'refund.succeeded': CardRefundEvent;
  /** The card provider says a refund failed (`refund.failed`). */
  'refund.failed': CardRefundEvent;
  /** The carrier says a parcel was picked up. */
  'parcel.picked-up': TrackingEvent;
  /** The carrier says a parcel was delivered. */
  'parcel.delivered': TrackingEvent;
  /** A customer (a USER account) logged in with a password. */
  'customer.logged-in': { customerId: string };
}

export type DomainEventName = keyof DomainEventMap;

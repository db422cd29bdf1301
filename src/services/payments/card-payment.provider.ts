import type { WebhookEvent } from './webhook-event';

/** Outcome of a charge attempt, as the card provider reports it. */
export enum PaymentIntentStatus {
  SUCCEEDED = 'SUCCEEDED',
  /** The card needs a 3-D Secure challenge; a signed webhook settles the intent later. */
  REQUIRES_ACTION = 'REQUIRES_ACTION',
  FAILED = 'FAILED',
  /** Canceled by the merchant before the buyer decided (an abandoned 3-D Secure challenge): it can never succeed. */
  CANCELED = 'CANCELED',
}

export interface ChargeRequest {
  orderId: string;
  /** Integer minor units of `currency`. */
  amount: number;
  /** ISO 4217 code. */
  currency: string;
  paymentMethodId: string;
  /** The buyer charged: a saved payment method is only charged for the customer who created it. */
  customerId: string;
  /** The same key never charges twice: the provider answers with the intent it created for it. */
  idempotencyKey: string;
  description?: string;
  /** Connect account that receives the funds (the seller), if any. */
  destinationAccountId?: string;
  /** Flat key/text pairs the provider keeps with the charge. */
  metadata?: Record<string, string>;
  /** Where the provider's 3-D Secure page sends the buyer back (checked by the caller); the shop's own by default. */
  returnUrl?: string;
}

export interface PaymentIntent {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
  paymentMethodId: string;
  status: PaymentIntentStatus;
  /** Why a charge failed, e.g. `card_declined`. */
  failureCode?: string;
}

export enum RefundStatus {
  SUCCEEDED = 'SUCCEEDED',
  FAILED = 'FAILED',
}

/** Money given back on a succeeded payment intent, as the card provider records it. */
export interface Refund {
  id: string;
  paymentIntentId: string;
  orderId: string;
  /** Integer minor units of `currency`. */
  amount: number;
  currency: string;
  status: RefundStatus;
  /** The merchant's own id of the refund (also its idempotency key). */
  reference: string;
}

/** A card tokenized by the provider; orders refer to it by `id` (`paymentMethodId`). */
export interface PaymentMethod {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/**
 * A card payment provider (DESIGN §8). The sandbox implementation is built in; a real provider implements the
 * same class and is bound in `PaymentsModule`. Settlement of intents that need 3-D Secure arrives as a signed
 * webhook on `/api/v1/cardpayment` ({@link CardPaymentEvent}).
 */
export abstract class CardPaymentProvider {
  /** Shown by `orderServiceImpl.activePaymentProvider()`. */
  abstract readonly name: string;
  /** Tokenizes `card` as a payment method of `customerId` (a user id) only. */
  abstract createPaymentMethod(card: CardDetails, customerId: string): Promise<PaymentMethod>;
  abstract charge(request: ChargeRequest): Promise<PaymentIntent>;
  abstract retrieve(paymentIntentId: string): Promise<PaymentIntent>;
  /** The URL where the buyer completes the 3-D Secure challenge of an intent in REQUIRES_ACTION. */
  abstract threeDSecureLink(paymentIntentId: string): Promise<string>;
  /**
   * Cancels an intent still in REQUIRES_ACTION, so a late challenge can no longer charge the buyer. Answers the intent
   * as it is then: CANCELED, or as decided when the buyer's decision came first.
   * @throws NotFoundException unknown intent
   */
  abstract cancel(paymentIntentId: string): Promise<PaymentIntent>;
  /**
   * Refunds `amount` of a succeeded intent; the same `reference` never refunds twice (the first refund is answered).
   * The outcome is also sent as a signed webhook ({@link CardRefundEvent}).
   * @throws NotFoundException unknown intent, ConflictException not charged or more than is left to refund
   */
  abstract refund(paymentIntentId: string, amount: number, reference: string): Promise<Refund>;
  /** @throws NotFoundException for an unknown refund */
  abstract retrieveRefund(refundId: string): Promise<Refund>;
}

export enum CardPaymentEventType {
  SUCCEEDED = 'payment_intent.succeeded',
  FAILED = 'payment_intent.payment_failed',
}

export enum CardRefundEventType {
  REFUNDED = 'charge.refunded',
  FAILED = 'refund.failed',
}

/** Body of a card payment webhook about a charge. */
export type CardChargeEvent = WebhookEvent<CardPaymentEventType, PaymentIntent>;
/** Body of a card payment webhook about a refund. */
export type CardRefundEvent = WebhookEvent<CardRefundEventType, Refund>;
/** Body of a card payment webhook. */
export type CardPaymentEvent = CardChargeEvent | CardRefundEvent;

export function isRefundEvent(event: CardPaymentEvent): event is CardRefundEvent {
  return (Object.values(CardRefundEventType) as string[]).includes(event.type);
}

import type { WebhookEvent } from './webhook-event';

/** Outcome of a charge attempt, as the card provider reports it. */
export enum PaymentIntentStatus {
  SUCCEEDED = 'SUCCEEDED',
  /** The card needs a 3-D Secure challenge; a signed webhook settles the intent later. */
  REQUIRES_ACTION = 'REQUIRES_ACTION',
  FAILED = 'FAILED',
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
}

export enum CardPaymentEventType {
  SUCCEEDED = 'payment_intent.succeeded',
  FAILED = 'payment_intent.payment_failed',
}

/** Body of a card payment webhook. */
export type CardPaymentEvent = WebhookEvent<CardPaymentEventType, PaymentIntent>;

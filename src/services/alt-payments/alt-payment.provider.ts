import type { WebhookEvent } from '../payments/webhook-event';

/** States of a redirect-style payment at the provider. */
export enum AltPaymentStatus {
  /** Created; the buyer has not yet answered on the provider's page. */
  CREATED = 'CREATED',
  /** The buyer approved; the merchant may capture (charge) or cancel it. */
  AUTHORIZED = 'AUTHORIZED',
  CAPTURED = 'CAPTURED',
  CANCELED = 'CANCELED',
  DECLINED = 'DECLINED',
}

export interface AltPayment {
  id: string;
  orderId: string;
  /** Integer minor units of `currency`. */
  amount: number;
  currency: string;
  status: AltPaymentStatus;
  /** The provider's page the buyer is sent to. */
  redirectUrl: string;
  returnUrl: string;
}

export interface CreateAltPayment {
  orderId: string;
  amount: number;
  currency: string;
  /** Where the provider sends the buyer back after answering. */
  returnUrl: string;
  /** The same key never creates a second payment: the provider answers with the one it created for it. */
  idempotencyKey: string;
}

/**
 * An alternative (redirect) payment provider (DESIGN §8): the buyer approves on the provider's page, the provider
 * sends them back and reports by signed webhook on `/api/v1/altpayment/webhook`; the merchant then captures or
 * cancels. The sandbox implementation is built in and bound in `AltPaymentsModule`.
 */
export abstract class AltPaymentProvider {
  abstract readonly name: string;
  abstract create(request: CreateAltPayment): Promise<AltPayment>;
  /** @throws NotFoundException for an unknown id */
  abstract retrieve(paymentId: string): Promise<AltPayment>;
  /** Charges an AUTHORIZED payment; a CAPTURED one is answered as is. @throws ConflictException otherwise */
  abstract capture(paymentId: string): Promise<AltPayment>;
  /** Voids a payment not yet captured; a CANCELED one is answered as is. @throws ConflictException otherwise */
  abstract cancel(paymentId: string): Promise<AltPayment>;
}

export enum AltPaymentEventType {
  AUTHORIZED = 'payment.authorized',
  DECLINED = 'payment.declined',
  CAPTURED = 'payment.captured',
  CANCELED = 'payment.canceled',
}

/**
 * Body of an alternative payment webhook. It only names the payment: the receiver asks the provider for its state,
 * so an event's claims are never trusted beyond its signature.
 */
export type AltPaymentEvent = WebhookEvent<AltPaymentEventType, { paymentId: string; orderId: string }>;

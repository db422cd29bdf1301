import { BadRequestException } from '@nestjs/common';
import {
  CardPaymentEvent,
  CardPaymentEventType,
  CardRefundEventType,
  PaymentIntentStatus,
  RefundStatus,
} from './card-payment.provider';
import { parseWebhookEvent } from './webhook-event';

const CHARGE_TYPES = new Set<string>(Object.values(CardPaymentEventType));
const REFUND_TYPES = new Set<string>(Object.values(CardRefundEventType));
const STATUSES = new Set<string>(Object.values(PaymentIntentStatus));
const REFUND_STATUSES = new Set<string>(Object.values(RefundStatus));

/** Parses an authentic webhook body; a signed body of the wrong shape is still refused (400). */
export function parseCardPaymentEvent(payload: string): CardPaymentEvent {
  const event = parseWebhookEvent<CardPaymentEvent>(
    payload,
    new Set([...CHARGE_TYPES, ...REFUND_TYPES]),
    (data) => isMoney(data) && (isRefundData(data) || isIntentData(data)),
    'a card payment event',
  );
  const data = event.data as unknown as Record<string, unknown>;
  if (REFUND_TYPES.has(event.type) ? !isRefundData(data) : !isIntentData(data)) {
    throw new BadRequestException('Not a card payment event');
  }
  return event;
}

function isMoney(data: Record<string, unknown>): boolean {
  return (
    typeof data.id === 'string' &&
    typeof data.orderId === 'string' &&
    Number.isInteger(data.amount) &&
    typeof data.currency === 'string'
  );
}

function isIntentData(data: Record<string, unknown>): boolean {
  return STATUSES.has(String(data.status));
}

function isRefundData(data: Record<string, unknown>): boolean {
  return typeof data.paymentIntentId === 'string' && REFUND_STATUSES.has(String(data.status));
}

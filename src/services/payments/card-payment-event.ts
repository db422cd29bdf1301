import { CardPaymentEvent, CardPaymentEventType, PaymentIntentStatus } from './card-payment.provider';
import { parseWebhookEvent } from './webhook-event';

const TYPES = new Set<string>(Object.values(CardPaymentEventType));
const STATUSES = new Set<string>(Object.values(PaymentIntentStatus));

/** Parses an authentic webhook body; a signed body of the wrong shape is still refused (400). */
export function parseCardPaymentEvent(payload: string): CardPaymentEvent {
  return parseWebhookEvent<CardPaymentEvent>(
    payload,
    TYPES,
    (data) =>
      typeof data.id === 'string' &&
      typeof data.orderId === 'string' &&
      Number.isInteger(data.amount) &&
      typeof data.currency === 'string' &&
      STATUSES.has(String(data.status)),
    'a card payment event',
  );
}

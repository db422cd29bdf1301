import { BadRequestException } from '@nestjs/common';
import { CardPaymentEvent, CardPaymentEventType, PaymentIntentStatus } from './card-payment.provider';

const TYPES = new Set<string>(Object.values(CardPaymentEventType));
const STATUSES = new Set<string>(Object.values(PaymentIntentStatus));

/** Parses an authentic webhook body; a signed body of the wrong shape is still refused (400). */
export function parseCardPaymentEvent(payload: string): CardPaymentEvent {
  const event = parseJson(payload) as Partial<CardPaymentEvent> | null;
  const data = event?.data;
  const valid =
    typeof event?.id === 'string' &&
    /^evt_\w{1,64}$/.test(event.id) &&
    TYPES.has(String(event.type)) &&
    Number.isInteger(event.created) &&
    typeof data?.id === 'string' &&
    typeof data.orderId === 'string' &&
    Number.isInteger(data.amount) &&
    typeof data.currency === 'string' &&
    STATUSES.has(String(data.status));
  if (!valid) throw new BadRequestException('Not a card payment event');
  return event as CardPaymentEvent;
}

function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    throw new BadRequestException('Webhook body is not JSON');
  }
}

import { BadRequestException } from '@nestjs/common';
import { AltPaymentEvent, AltPaymentEventType } from './alt-payment.provider';

const TYPES = new Set<string>(Object.values(AltPaymentEventType));

/** Parses an authentic webhook body; a signed body of the wrong shape is still refused (400). */
export function parseAltPaymentEvent(payload: string): AltPaymentEvent {
  let event: Partial<AltPaymentEvent> | null;
  try {
    event = JSON.parse(payload) as Partial<AltPaymentEvent> | null;
  } catch {
    throw new BadRequestException('Webhook body is not JSON');
  }
  const valid =
    typeof event?.id === 'string' &&
    /^evt_\w{1,64}$/.test(event.id) &&
    TYPES.has(String(event.type)) &&
    Number.isInteger(event.created) &&
    typeof event.data?.paymentId === 'string' &&
    typeof event.data.orderId === 'string';
  if (!valid) throw new BadRequestException('Not an alternative payment event');
  return event as AltPaymentEvent;
}

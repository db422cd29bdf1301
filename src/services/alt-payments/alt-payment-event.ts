import { parseWebhookEvent } from '../payments';
import { AltPaymentEvent, AltPaymentEventType } from './alt-payment.provider';

const TYPES = new Set<string>(Object.values(AltPaymentEventType));

/** Parses an authentic webhook body; a signed body of the wrong shape is still refused (400). */
export function parseAltPaymentEvent(payload: string): AltPaymentEvent {
  return parseWebhookEvent<AltPaymentEvent>(
    payload,
    TYPES,
    (data) => typeof data.paymentId === 'string' && typeof data.orderId === 'string',
    'an alternative payment event',
  );
}

/** What other modules (orders, accounting, alternative payments) use of card payments and webhook signing. */
export {
  CardPaymentEventType,
  CardPaymentProvider,
  PaymentIntentStatus,
} from './card-payment.provider';
export type {
  CardDetails,
  CardPaymentEvent,
  ChargeRequest,
  PaymentIntent,
  PaymentMethod,
} from './card-payment.provider';
export type { PaymentStatus } from './payment-status';
export {
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  signWebhook,
  verifyWebhook,
  WebhookSignatureError,
} from './webhook-signature';
export { WebhookReplayGuard } from './webhook-replay-guard';

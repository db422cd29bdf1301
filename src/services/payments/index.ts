/** What other modules (orders, accounting, alternative payments) use of card payments and webhook signing. */
export {
  CardPaymentEventType,
  CardPaymentProvider,
  CardRefundEventType,
  isRefundEvent,
  PaymentIntentStatus,
  RefundStatus,
} from './card-payment.provider';
export type {
  CardChargeEvent,
  CardDetails,
  CardPaymentEvent,
  CardRefundEvent,
  Refund,
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
export { verifiedPayload } from './verified-payload';
export { parseWebhookEvent } from './webhook-event';
export type { WebhookReceipt } from './card-payment-webhook.controller';
export { SelfUrl } from './self-url';
export { SignedWebhookSender } from './signed-webhook-sender';
export { PaymentsModule } from './payments.module';
export { formatMoney } from './money';

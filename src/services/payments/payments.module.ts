import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CardPaymentWebhookController } from './card-payment-webhook.controller';
import { CardPaymentProvider } from './card-payment.provider';
import { PaymentMethodController } from './payment-method.controller';
import { ProcessedWebhook, ProcessedWebhookSchema } from './processed-webhook.schema';
import { CardPaymentSandbox } from './sandbox/card-payment-sandbox';
import { SandboxPaymentIntent, SandboxPaymentIntentSchema } from './sandbox/sandbox-payment-intent.schema';
import { SandboxPaymentMethod, SandboxPaymentMethodSchema } from './sandbox/sandbox-payment-method.schema';
import { SandboxRefund, SandboxRefundSchema } from './sandbox/sandbox-refund.schema';
import { ThreeDSecureController } from './sandbox/three-d-secure.controller';
import { SelfUrl } from './self-url';
import { SignedWebhookSender } from './signed-webhook-sender';
import { WebhookReplayGuard } from './webhook-replay-guard';

/**
 * Card payments: the provider (the built-in sandbox, bound to {@link CardPaymentProvider}), its webhook endpoint
 * (whose notices it emits as domain events). Exports what orders and the other payment modules use.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: ProcessedWebhook.name, schema: ProcessedWebhookSchema },
      { name: SandboxPaymentMethod.name, schema: SandboxPaymentMethodSchema },
      { name: SandboxPaymentIntent.name, schema: SandboxPaymentIntentSchema },
      { name: SandboxRefund.name, schema: SandboxRefundSchema },
    ]),
  ],
  controllers: [CardPaymentWebhookController, PaymentMethodController, ThreeDSecureController],
  providers: [
    CardPaymentSandbox,
    { provide: CardPaymentProvider, useExisting: CardPaymentSandbox },
    WebhookReplayGuard,
    SelfUrl,
    SignedWebhookSender,
  ],
  exports: [CardPaymentProvider, WebhookReplayGuard, SelfUrl, SignedWebhookSender],
})
export class PaymentsModule {}

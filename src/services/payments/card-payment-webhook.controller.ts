import { Controller, Headers, HttpCode, Post, RawBodyRequest, Req } from '@nestjs/common';
import { Request } from 'express';
import { AppConfig } from '../../config/app-config';
import { parseCardPaymentEvent } from './card-payment-event';
import { DomainEvents } from '../../events/domain-events';
import { CardPaymentEvent, CardPaymentEventType, CardRefundEventType, isRefundEvent } from './card-payment.provider';
import { WebhookReplayGuard } from './webhook-replay-guard';
import { verifiedPayload } from './verified-payload';
import { SIGNATURE_HEADER } from './webhook-signature';

export interface WebhookReceipt {
  received: true;
  /** True when the event had been handled before: nothing was done again. */
  duplicate: boolean;
}

/** `/api/v1/cardpayment`: the card provider's signed webhooks (DESIGN §8). */
@Controller('api/v1/cardpayment')
export class CardPaymentWebhookController {
  constructor(
    private readonly config: AppConfig,
    private readonly events: DomainEvents,
    private readonly replays: WebhookReplayGuard,
  ) {}

  /** 400 for a missing, malformed, expired or wrong signature, before anything is read or changed. */
  @Post()
  @HttpCode(200)
  async receive(
    @Req() request: RawBodyRequest<Request>,
    @Headers(SIGNATURE_HEADER) signature: string | undefined,
  ): Promise<WebhookReceipt> {
    const payload = verifiedPayload(request, signature, this.config.webhookSecrets.cardPayment);
    const event = parseCardPaymentEvent(payload);
    const handled = await this.replays.once('cardpayment', event.id, () => this.emit(event));
    return { received: true, duplicate: !handled };
  }

  /** The notice as its domain event; a listener's failure fails the webhook, so the provider sends it again. */
  private emit(event: CardPaymentEvent): Promise<void> {
    if (isRefundEvent(event)) {
      return this.events.emit(
        event.type === CardRefundEventType.REFUNDED ? 'refund.succeeded' : 'refund.failed',
        event,
      );
    }
    return this.events.emit(
      event.type === CardPaymentEventType.SUCCEEDED ? 'payment.succeeded' : 'payment.failed',
      event,
    );
  }
}

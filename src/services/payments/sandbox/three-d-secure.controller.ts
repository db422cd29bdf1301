import { Body, Controller, Get, Header, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { IsIn } from 'class-validator';
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../../common/html-escape';
import { AppConfig } from '../../../config/app-config';
import { CardPaymentEvent, CardPaymentEventType, PaymentIntent, PaymentIntentStatus } from '../card-payment.provider';
import { SignedWebhookSender } from '../signed-webhook-sender';
import { formatMoney } from '../money';
import { CardPaymentSandbox, CHALLENGE_PATH } from './card-payment-sandbox';

export class ChallengeAnswerDto {
  @IsIn(['complete', 'fail']) outcome!: 'complete' | 'fail';
}

/**
 * The sandbox's 3-D Secure challenge page. The intent id in the URL is a random capability, as on a real
 * provider's page; answering it settles the intent and sends the signed webhook to `/api/v1/cardpayment`.
 */
@Controller(CHALLENGE_PATH.slice(1))
export class ThreeDSecureController {
  constructor(
    private readonly sandbox: CardPaymentSandbox,
    private readonly sender: SignedWebhookSender,
    private readonly config: AppConfig,
  ) {}

  @Get(':intentId')
  @Header('content-type', 'text/html; charset=utf-8')
  async page(@Param('intentId') intentId: string): Promise<string> {
    const intent = await this.sandbox.retrieve(intentId);
    const amount = formatMoney(intent.amount, intent.currency);
    return `<!doctype html><html><head><title>3-D Secure (sandbox)</title></head><body>
<h1>Confirm your payment of ${escapeHtml(amount)}</h1><p>Status: ${escapeHtml(intent.status)}</p>
<form method="post"><button name="outcome" value="complete">Complete</button>
<button name="outcome" value="fail">Fail</button></form></body></html>`;
  }

  /**
   * The page's form (a browser, `application/x-www-form-urlencoded`) is sent back to the payment's `returnUrl` with
   * a 303 and `payment_intent` and `redirect_status` added to its query, as a real provider's page does; a JSON
   * client gets the outcome as JSON with that `returnUrl`.
   */
  @Post(':intentId')
  @HttpCode(200)
  async answer(
    @Param('intentId') intentId: string,
    @Body() { outcome }: ChallengeAnswerDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ChallengeOutcome | undefined> {
    const intent = await this.settle(intentId, outcome);
    const returnUrl = withOutcome(await this.sandbox.returnUrlOf(intent.id), intent);
    if (request.is('application/x-www-form-urlencoded')) {
      response.redirect(303, returnUrl);
      return undefined;
    }
    return { paymentIntentId: intent.id, status: intent.status, returnUrl };
  }

  private async settle(intentId: string, outcome: ChallengeAnswerDto['outcome']): Promise<PaymentIntent> {
    const intent = await this.sandbox.completeChallenge(intentId, outcome === 'complete');
    const event: CardPaymentEvent = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      type: passed(intent) ? CardPaymentEventType.SUCCEEDED : CardPaymentEventType.FAILED,
      created: Math.floor(Date.now() / 1000),
      data: intent,
    };
    await this.sender.send('/api/v1/cardpayment', event, this.config.webhookSecrets.cardPayment);
    return intent;
  }
}

interface ChallengeOutcome {
  paymentIntentId: string;
  status: PaymentIntentStatus;
  returnUrl: string;
}

function withOutcome(returnUrl: string, intent: PaymentIntent): string {
  const url = new URL(returnUrl);
  url.searchParams.set('payment_intent', intent.id);
  url.searchParams.set('redirect_status', passed(intent) ? 'succeeded' : 'failed');
  return url.href;
}

function passed(intent: PaymentIntent): boolean {
  return intent.status === PaymentIntentStatus.SUCCEEDED;
}

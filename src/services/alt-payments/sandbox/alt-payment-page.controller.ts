import { Body, Controller, Get, Header, Param, Post, Res } from '@nestjs/common';
import { IsIn } from 'class-validator';
import { Response } from 'express';
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../../common/html-escape';
import { AppConfig } from '../../../config/app-config';
import { formatMoney, SignedWebhookSender } from '../../payments';
import { AltPayment, AltPaymentEvent, AltPaymentEventType, AltPaymentStatus } from '../alt-payment.provider';
import { ALT_PAYMENT_WEBHOOK_PATH } from '../alt-payment-webhook-path';
import { AltPaymentSandbox, SANDBOX_PAGE_PATH } from './alt-payment-sandbox';

export class AltPaymentAnswerDto {
  @IsIn(['approve', 'decline']) outcome!: 'approve' | 'decline';
}

/**
 * The sandbox provider's page the buyer is redirected to. Answering it sends the signed webhook, then the buyer
 * back to the shop's return URL, as a redirect-style provider does.
 */
@Controller(SANDBOX_PAGE_PATH.slice(1))
export class AltPaymentPageController {
  constructor(
    private readonly sandbox: AltPaymentSandbox,
    private readonly sender: SignedWebhookSender,
    private readonly config: AppConfig,
  ) {}

  @Get(':paymentId')
  @Header('content-type', 'text/html; charset=utf-8')
  async page(@Param('paymentId') paymentId: string): Promise<string> {
    const payment = await this.sandbox.retrieve(paymentId);
    return `<!doctype html><html><head><title>Pay later (sandbox)</title></head><body>
<h1>Pay ${escapeHtml(formatMoney(payment.amount, payment.currency))}</h1><p>Status: ${escapeHtml(payment.status)}</p>
<form method="post"><button name="outcome" value="approve">Approve</button>
<button name="outcome" value="decline">Decline</button></form></body></html>`;
  }

  @Post(':paymentId')
  async answer(
    @Param('paymentId') paymentId: string,
    @Body() { outcome }: AltPaymentAnswerDto,
    @Res() response: Response,
  ): Promise<void> {
    const payment = await this.sandbox.answer(paymentId, outcome === 'approve');
    await this.sender.send(ALT_PAYMENT_WEBHOOK_PATH, eventOf(payment), this.config.altPayment.webhookSecret);
    const back = new URL(payment.returnUrl);
    back.searchParams.set('paymentId', payment.id);
    response.redirect(303, back.toString());
  }
}

function eventOf(payment: AltPayment): AltPaymentEvent {
  return {
    id: `evt_${randomBytes(12).toString('hex')}`,
    type:
      payment.status === AltPaymentStatus.AUTHORIZED ? AltPaymentEventType.AUTHORIZED : AltPaymentEventType.DECLINED,
    created: Math.floor(Date.now() / 1000),
    data: { paymentId: payment.id, orderId: payment.orderId },
  };
}

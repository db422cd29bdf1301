import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Post,
  Query,
  RawBodyRequest,
  Req,
  UnauthorizedException,
} from '@nestjs/common';
import { Request } from 'express';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { AppConfig } from '../../config/app-config';
import { SIGNATURE_HEADER, verifiedPayload, WebhookReceipt, WebhookReplayGuard } from '../payments';
import { AltPayment, AltPaymentProvider } from './alt-payment.provider';
import { AltPaymentCheckout } from './alt-payment-checkout';
import { AltPaymentView, StartAltPaymentDto } from './alt-payment.dto';
import { parseAltPaymentEvent } from './alt-payment-event';
import { AltPaymentSettlement } from './alt-payment-settlement';

/** `/api/v1/altpayment`: start a redirect payment, the buyer's return from the provider, and its signed webhooks. */
@Controller('api/v1/altpayment')
export class AltPaymentController {
  constructor(
    private readonly checkout: AltPaymentCheckout,
    private readonly provider: AltPaymentProvider,
    private readonly settlement: AltPaymentSettlement,
    private readonly replays: WebhookReplayGuard,
    private readonly config: AppConfig,
  ) {}

  /** The buyer starts paying their own APPROVED order; the answer's `redirectUrl` is the provider's page. */
  @Roles(Role.USER)
  @Post()
  @HttpCode(201)
  async start(@Body() { orderId }: StartAltPaymentDto): Promise<AltPaymentView> {
    const buyer = RequestContext.principal();
    if (!buyer) throw new UnauthorizedException();
    return toView(await this.checkout.start(orderId, buyer));
  }

  /** Where the provider sends the buyer back: the state is asked of the provider, never taken from the query. */
  @Get('return')
  async returned(@Query('paymentId') paymentId: string | undefined): Promise<AltPaymentView> {
    return toView(await this.provider.retrieve(String(paymentId ?? '')));
  }

  /** 400 for a missing, malformed, expired or wrong signature, before anything is read or changed. */
  @Post('webhook')
  @HttpCode(200)
  async webhook(
    @Req() request: RawBodyRequest<Request>,
    @Headers(SIGNATURE_HEADER) signature: string | undefined,
  ): Promise<WebhookReceipt> {
    const payload = verifiedPayload(request, signature, this.config.altPayment.webhookSecret);
    const event = parseAltPaymentEvent(payload);
    const settle = () => this.settlement.settleById(event.data.paymentId);
    const handled = await this.replays.once('altpayment', event.id, settle);
    return { received: true, duplicate: !handled };
  }
}

function toView(payment: AltPayment): AltPaymentView {
  return { paymentId: payment.id, orderId: payment.orderId, status: payment.status, redirectUrl: payment.redirectUrl };
}

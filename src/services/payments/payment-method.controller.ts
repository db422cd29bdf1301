import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../common/principal';
import { CardPaymentProvider, PaymentMethod } from './card-payment.provider';
import { CreatePaymentMethodDto } from './payment-method.dto';

/**
 * Tokenizes a card into a payment method id of the logged-in user, which they then give to `digitalOrderCheckout`
 * (`paymentMethodId`); only their own orders can be charged with it. With a real provider this step happens in the
 * browser against the provider directly.
 */
@Controller('api/v1/cardpayment/payment-methods')
export class PaymentMethodController {
  constructor(private readonly provider: CardPaymentProvider) {}

  @Roles(Role.USER)
  @Post()
  @HttpCode(201)
  create(@Req() request: AuthenticatedRequest, @Body() card: CreatePaymentMethodDto): Promise<PaymentMethod> {
    return this.provider.createPaymentMethod(card, request.principal!.id);
  }
}

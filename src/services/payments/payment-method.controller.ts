import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../common/principal';
import { CardPaymentProvider, PaymentMethod } from './card-payment.provider';
import { CreatePaymentMethodDto } from './payment-method.dto';

/**
 * Tokenizes a card into a payment method id, which the buyer then gives to `digitalOrderCheckout`
 * (`paymentMethodId`). With a real provider this step happens in the browser against the provider directly.
 */
@Controller('api/v1/cardpayment/payment-methods')
export class PaymentMethodController {
  constructor(private readonly provider: CardPaymentProvider) {}

  @Roles(Role.USER)
  @Post()
  @HttpCode(201)
  create(@Body() card: CreatePaymentMethodDto): Promise<PaymentMethod> {
    return this.provider.createPaymentMethod(card);
  }
}

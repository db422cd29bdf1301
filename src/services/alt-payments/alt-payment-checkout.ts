import { Injectable } from '@nestjs/common';
import { Principal } from '../../common/principal';
import { OrderPaymentFlow } from '../orders/order-payment-flow';
import { SelfUrl } from '../payments';
import { AltPayment, AltPaymentProvider } from './alt-payment.provider';
import { AltPaymentKeys } from './alt-payment-keys';

export const ALT_PAYMENT_RETURN_PATH = '/api/v1/altpayment/return';

/** Starts the alternative payment of an order: the buyer is then redirected to the provider's page. */
@Injectable()
export class AltPaymentCheckout {
  constructor(
    private readonly provider: AltPaymentProvider,
    private readonly keys: AltPaymentKeys,
    private readonly flow: OrderPaymentFlow,
    private readonly self: SelfUrl,
  ) {}

  /** Through the orders' payment state machine ({@link OrderPaymentFlow.begin}): never a second payment. */
  async start(orderId: string, buyer: Principal): Promise<AltPayment> {
    this.keys.require();
    const pending = await this.flow.begin(await this.flow.payable(orderId, buyer), buyer);
    const payment = await this.provider
      .create({
        orderId,
        amount: pending.total,
        currency: pending.currencyCode,
        returnUrl: `${this.self.public()}${ALT_PAYMENT_RETURN_PATH}`,
        idempotencyKey: `${orderId}:${pending.orderTimeLines.length}`,
      })
      .catch((error: unknown) => this.flow.notStarted(pending, buyer, error));
    await this.flow.awaitDecision(pending, payment.id);
    return payment;
  }
}

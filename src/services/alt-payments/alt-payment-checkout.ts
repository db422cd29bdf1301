import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Principal } from '../../common/principal';
import { SelfUrl } from '../payments';
import { OrderStore } from '../orders/order-store';
import { OrderTransitions } from '../orders/order-transitions';
import { Order, OrderStatus } from '../orders/order.schema';
import { AltPayment, AltPaymentProvider } from './alt-payment.provider';
import { AltPaymentKeys } from './alt-payment-keys';

export const ALT_PAYMENT_RETURN_PATH = '/api/v1/altpayment/return';

/** Starts the alternative payment of an order: the buyer is then redirected to the provider's page. */
@Injectable()
export class AltPaymentCheckout {
  constructor(
    @InjectModel(Order.name) private readonly orderModel: Model<Order>,
    private readonly provider: AltPaymentProvider,
    private readonly keys: AltPaymentKeys,
    private readonly orders: OrderStore,
    private readonly transitions: OrderTransitions,
    private readonly self: SelfUrl,
  ) {}

  /**
   * Enters PAYMENT_PENDING first (a failed payment goes back through APPROVED), so a second start meanwhile, or on a
   * PAID order, is a 409 and never a second payment.
   */
  async start(orderId: string, buyer: Principal): Promise<AltPayment> {
    this.keys.require();
    const order = await this.orders.findOwn(orderId, buyer);
    if (order.status === OrderStatus.PAYMENT_FAILED) {
      await this.transitions.move(orderId, OrderStatus.APPROVED, buyer.id);
    }
    const pending = await this.transitions.move(orderId, OrderStatus.PAYMENT_PENDING, buyer.id);
    try {
      const payment = await this.provider.create({
        orderId,
        amount: pending.total,
        currency: pending.currencyCode,
        returnUrl: `${this.self.public()}${ALT_PAYMENT_RETURN_PATH}`,
        idempotencyKey: `${orderId}:${pending.orderTimeLines.length}`,
      });
      await this.orderModel.updateOne({ _id: pending._id }, { $set: { paymentIntentId: payment.id } }).exec();
      return payment;
    } catch (error) {
      await this.transitions.move(orderId, OrderStatus.PAYMENT_FAILED, buyer.id);
      throw error;
    }
  }
}

import { ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { PaymentIntentStatus, PaymentStatus } from '../payments';
import { OrderStore } from '../orders/order-store';
import { OrderTransitions } from '../orders/order-transitions';
import { OrderStatus } from '../orders/order.schema';
import { AltPayment, AltPaymentProvider, AltPaymentStatus } from './alt-payment.provider';

/** The order status a payment's state leads to, if any. */
const SETTLES_TO: Partial<Record<AltPaymentStatus, OrderStatus>> = {
  [AltPaymentStatus.CAPTURED]: OrderStatus.PAID,
  [AltPaymentStatus.CANCELED]: OrderStatus.PAYMENT_FAILED,
  [AltPaymentStatus.DECLINED]: OrderStatus.PAYMENT_FAILED,
};

/** Applies the provider's view of a payment to its order, through the order lifecycle. */
@Injectable()
export class AltPaymentSettlement {
  private readonly logger = new Logger(AltPaymentSettlement.name);

  constructor(
    private readonly provider: AltPaymentProvider,
    private readonly orders: OrderStore,
    private readonly transitions: OrderTransitions,
  ) {}

  /** Asks the provider for the payment's state and settles its order; safe to repeat. */
  async settleById(paymentId: string): Promise<void> {
    await this.settle(await this.provider.retrieve(paymentId));
  }

  /**
   * Moves the PAYMENT_PENDING order of the payment to PAID or PAYMENT_FAILED, only while the order still waits for
   * this very payment with the same amount and currency; an order already settled is left alone.
   */
  async settle(payment: AltPayment): Promise<PaymentStatus> {
    const to = SETTLES_TO[payment.status];
    if (to) await this.move(payment, to);
    const order = await this.orders.find(payment.orderId);
    return toPaymentStatus(payment, order.status);
  }

  private async move(payment: AltPayment, to: OrderStatus): Promise<void> {
    const where = { paymentIntentId: payment.id, total: payment.amount, currencyCode: payment.currency };
    try {
      await this.transitions.move(payment.orderId, to, `system:${this.provider.name}`, { where });
    } catch (error) {
      if (!(error instanceof ConflictException || error instanceof NotFoundException)) throw error;
      this.logger.warn(`Payment ${payment.id} not applied to order ${payment.orderId}: ${error.message}`);
    }
  }
}

function toPaymentStatus(payment: AltPayment, orderStatus: string): PaymentStatus {
  const status =
    payment.status === AltPaymentStatus.CAPTURED
      ? PaymentIntentStatus.SUCCEEDED
      : SETTLES_TO[payment.status]
        ? PaymentIntentStatus.FAILED
        : PaymentIntentStatus.REQUIRES_ACTION;
  return {
    orderId: payment.orderId,
    orderStatus,
    paymentIntentId: payment.id,
    status,
    amount: payment.amount,
    currency: payment.currency,
    ...(status === PaymentIntentStatus.REQUIRES_ACTION ? { nextActionUrl: payment.redirectUrl } : {}),
    ...(status === PaymentIntentStatus.FAILED ? { failureCode: payment.status.toLowerCase() } : {}),
  };
}

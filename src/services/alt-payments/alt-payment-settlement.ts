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

/** How the order service reports a payment's state (`PaymentStatus.status`). */
const INTENT_STATUS: Record<AltPaymentStatus, PaymentIntentStatus> = {
  [AltPaymentStatus.CREATED]: PaymentIntentStatus.REQUIRES_ACTION,
  [AltPaymentStatus.AUTHORIZED]: PaymentIntentStatus.REQUIRES_ACTION,
  [AltPaymentStatus.CAPTURED]: PaymentIntentStatus.SUCCEEDED,
  [AltPaymentStatus.CANCELED]: PaymentIntentStatus.FAILED,
  [AltPaymentStatus.DECLINED]: PaymentIntentStatus.FAILED,
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

  /**
   * A webhook's payment: asks the provider for its state and settles its order; safe to repeat. An event about a
   * payment the provider does not know is acknowledged and logged, so it is not redelivered forever.
   */
  async settleById(paymentId: string): Promise<void> {
    let payment: AltPayment;
    try {
      payment = await this.provider.retrieve(paymentId);
    } catch (error) {
      if (!(error instanceof NotFoundException)) throw error;
      this.logger.warn(`Webhook about unknown payment ${paymentId} ignored`);
      return;
    }
    await this.apply(payment);
  }

  /** Settles the payment's order and answers where payment and order stand. */
  async settle(payment: AltPayment): Promise<PaymentStatus> {
    await this.apply(payment);
    const order = await this.orders.find(payment.orderId);
    return toPaymentStatus(payment, order.status);
  }

  /**
   * Moves the PAYMENT_PENDING order of the payment to PAID or PAYMENT_FAILED, only while the order still waits for
   * this very payment with the same amount and currency; an order already settled is left alone.
   */
  private async apply(payment: AltPayment): Promise<void> {
    const to = SETTLES_TO[payment.status];
    if (!to) return;
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
  const status = INTENT_STATUS[payment.status];
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

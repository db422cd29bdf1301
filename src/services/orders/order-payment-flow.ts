import { Injectable, Logger } from '@nestjs/common';
import { Principal } from '../../common/principal';
import { isRefusal } from './refusal';
import { OrderStatus } from './order-status';
import { OrderRepository } from './order.repository';
import { OrderTransitions } from './order-transitions';
import { StoredOrder } from './order.view';

/** What a payment provider said about a payment, as far as its order is concerned. */
export interface ProviderPayment {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
}

/**
 * The payment state machine of an order, the same for every way to pay (the card in `OrderPayments`, the
 * alternative payments module): start, wait for the provider, settle. Exported by `OrdersModule` as the one way
 * other modules change an order's payment.
 */
@Injectable()
export class OrderPaymentFlow {
  private readonly logger = new Logger(OrderPaymentFlow.name);

  constructor(
    private readonly store: OrderRepository,
    private readonly transitions: OrderTransitions,
  ) {}

  /** The order `payer` may pay: their own (any for an ADMIN); 400, 403 or 404 otherwise. */
  payable(orderId: string, payer: Principal): Promise<StoredOrder> {
    return this.store.findOwn(orderId, payer);
  }

  /**
   * Enters PAYMENT_PENDING (a failed order goes back through APPROVED first), so a second payment meanwhile, or of a
   * PAID order, is a 409 and never a second charge. The pending order: the caller asks its provider next, and hands a
   * failure to ask to {@link notStarted}.
   */
  async begin(order: StoredOrder, payer: Principal): Promise<StoredOrder> {
    const orderId = String(order._id);
    if (order.status === OrderStatus.PAYMENT_FAILED) {
      await this.transitions.move(orderId, OrderStatus.APPROVED, payer.id);
    }
    return this.transitions.move(orderId, OrderStatus.PAYMENT_PENDING, payer.id);
  }

  /** Asking the provider failed (refused, unreachable): the order becomes PAYMENT_FAILED and the error is thrown on. */
  async notStarted(order: StoredOrder, payer: Principal, error: unknown): Promise<never> {
    await this.transitions.move(String(order._id), OrderStatus.PAYMENT_FAILED, payer.id);
    throw error;
  }

  /** The pending order now waits for the provider's decision on `paymentId` (a webhook, or the buyer's return). */
  async awaitDecision(order: StoredOrder, paymentId: string): Promise<void> {
    await this.store.recordPaymentIntent(order._id, paymentId);
  }

  /** Settles at once, by the payer, what the provider decided while being asked. */
  decided(order: StoredOrder, paymentId: string, paid: boolean, payer: Principal): Promise<StoredOrder> {
    const to = paid ? OrderStatus.PAID : OrderStatus.PAYMENT_FAILED;
    return this.transitions.move(String(order._id), to, payer.id, { set: { paymentIntentId: paymentId } });
  }

  /**
   * Moves the PAYMENT_PENDING order of the payment to PAID or PAYMENT_FAILED, only while the order still waits for
   * this very payment with the same amount and currency. Anything else (already settled, unknown order) is logged
   * and left alone, so a provider's repeated event is harmless.
   */
  async settle(payment: ProviderPayment, paid: boolean, provider: string): Promise<void> {
    const to = paid ? OrderStatus.PAID : OrderStatus.PAYMENT_FAILED;
    const where = { paymentIntentId: payment.id, total: payment.amount, currencyCode: payment.currency };
    try {
      await this.transitions.move(payment.orderId, to, `system:${provider}`, { where });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.logger.warn(`Payment ${payment.id} not applied to order ${payment.orderId}: ${error.message}`);
    }
  }

  /** The order's status now (what a payment status reports beside the provider's view). */
  async statusOf(orderId: string): Promise<OrderStatus> {
    return (await this.store.find(orderId)).status;
  }

  /** The ids of the payments that PAYMENT_PENDING orders wait for. */
  async pendingPaymentIds(): Promise<string[]> {
    const pending = await this.store.awaitingPayment();
    return pending.map(({ paymentIntentId }) => String(paymentIntentId));
  }
}

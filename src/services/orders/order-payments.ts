import { ConflictException, Injectable, Logger, NotFoundException, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Principal } from '../../common/principal';
import {
  CardPaymentEvent,
  CardPaymentEvents,
  CardPaymentEventType,
  CardPaymentProvider,
  ChargeRequest,
  PaymentIntent,
  PaymentIntentStatus,
  PaymentStatus,
} from '../payments';
import { isRefusal } from './refusal';
import { OrderStore } from './order-store';
import { OrderTransitions } from './order-transitions';
import { Order, OrderStatus } from './order.schema';
import { StoredOrder } from './order.view';

/** The intent status each card event claims. */
const CLAIMED_STATUS: Record<CardPaymentEventType, PaymentIntentStatus> = {
  [CardPaymentEventType.SUCCEEDED]: PaymentIntentStatus.SUCCEEDED,
  [CardPaymentEventType.FAILED]: PaymentIntentStatus.FAILED,
};

export type ChargeOptions = Pick<ChargeRequest, 'description' | 'destinationAccountId' | 'metadata'>;

/** Charges orders through the active card provider and settles them from its webhooks (DESIGN §7, §8). */
@Injectable()
export class OrderPayments implements OnModuleInit {
  private readonly logger = new Logger(OrderPayments.name);

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly provider: CardPaymentProvider,
    private readonly events: CardPaymentEvents,
    private readonly store: OrderStore,
    private readonly transitions: OrderTransitions,
  ) {}

  onModuleInit(): void {
    this.events.subscribe((event) => this.settle(event));
  }

  get providerName(): string {
    return this.provider.name;
  }

  /**
   * Charges the order's card. The order first enters PAYMENT_PENDING (a failed one goes back through APPROVED), so
   * a second `pay` meanwhile, or on a PAID order, is a 409 and never a second charge. A 3-D Secure card leaves it
   * PAYMENT_PENDING until the provider's webhook.
   */
  async pay(orderId: string, payer: Principal, options: ChargeOptions = {}): Promise<PaymentStatus> {
    const order = await this.store.findOwn(orderId, payer);
    if (!order.paymentMethodId) {
      throw new ConflictException('Choose a card first: digitalOrderCheckout with orderId and paymentMethodId');
    }
    if (order.status === OrderStatus.PAYMENT_FAILED) {
      await this.transitions.move(orderId, OrderStatus.APPROVED, payer.id);
    }
    const pending = await this.transitions.move(orderId, OrderStatus.PAYMENT_PENDING, payer.id);
    const intent = await this.charge(pending, payer, options);
    return this.outcome(pending, intent, payer);
  }

  /** The challenge URL of the order's pending 3-D Secure payment. */
  async threeDSecureLink(orderId: string, buyer: Principal): Promise<string> {
    const order = await this.store.findOwn(orderId, buyer);
    if (order.status !== OrderStatus.PAYMENT_PENDING || !order.paymentIntentId) {
      throw new ConflictException(`Order ${orderId} is ${order.status}: no payment awaits 3-D Secure`);
    }
    return this.provider.threeDSecureLink(order.paymentIntentId);
  }

  /**
   * Asks the provider about every PAYMENT_PENDING order and settles those it has decided: a safety net for
   * webhooks that never arrived.
   */
  async reconcile(): Promise<void> {
    const pending = await this.orders
      .find({ status: OrderStatus.PAYMENT_PENDING, paymentIntentId: { $exists: true } }, { paymentIntentId: 1 })
      .lean()
      .exec();
    for (const { paymentIntentId } of pending) {
      const intent = await this.provider.retrieve(String(paymentIntentId));
      if (intent.status !== PaymentIntentStatus.REQUIRES_ACTION) await this.settleIntent(intent);
    }
  }

  private async charge(order: StoredOrder, payer: Principal, options: ChargeOptions): Promise<PaymentIntent> {
    const orderId = String(order._id);
    try {
      return await this.provider.charge({
        ...options,
        orderId,
        amount: order.total,
        currency: order.currencyCode,
        paymentMethodId: String(order.paymentMethodId),
        customerId: order.embeddedBuyer.userId,
        // One key per attempt: the time line grows with every retry.
        idempotencyKey: `${orderId}:${order.orderTimeLines.length}`,
      });
    } catch (error) {
      await this.transitions.move(orderId, OrderStatus.PAYMENT_FAILED, payer.id);
      throw error;
    }
  }

  private async outcome(order: StoredOrder, intent: PaymentIntent, payer: Principal): Promise<PaymentStatus> {
    const orderId = String(order._id);
    const set = { paymentIntentId: intent.id };
    let settled: StoredOrder;
    let nextActionUrl: string | undefined;
    if (intent.status === PaymentIntentStatus.SUCCEEDED) {
      settled = await this.transitions.move(orderId, OrderStatus.PAID, payer.id, { set });
    } else if (intent.status === PaymentIntentStatus.FAILED) {
      settled = await this.transitions.move(orderId, OrderStatus.PAYMENT_FAILED, payer.id, { set });
    } else {
      await this.orders.updateOne({ _id: order._id }, { $set: set }).exec();
      settled = order;
      nextActionUrl = await this.provider.threeDSecureLink(intent.id);
    }
    return {
      orderId,
      orderStatus: settled.status,
      paymentIntentId: intent.id,
      status: intent.status,
      amount: intent.amount,
      currency: intent.currency,
      ...(nextActionUrl ? { nextActionUrl } : {}),
      ...(intent.failureCode ? { failureCode: intent.failureCode } : {}),
    };
  }

  /**
   * Settles an authentic event's order only as far as the provider confirms it: the event names the intent, the
   * provider's own record of it decides (never the event body). An event the provider does not confirm, e.g. forged
   * with a leaked secret, out of order or about an unknown intent, changes nothing and is logged.
   */
  private async settle(event: CardPaymentEvent): Promise<void> {
    const claimed = CLAIMED_STATUS[event.type];
    const intent = await this.retrieveKnown(event.data.id);
    if (intent?.status !== claimed) {
      const actual = intent ? `the intent is ${intent.status}` : 'the provider does not know the intent';
      this.logger.warn(`Ignored card event ${event.id} (${event.type} of ${event.data.id}): ${actual}`);
      return;
    }
    await this.settleIntent(intent);
  }

  /** The provider's record of the intent; undefined when it has none (other failures propagate, for a retry). */
  private async retrieveKnown(paymentIntentId: string): Promise<PaymentIntent | undefined> {
    try {
      return await this.provider.retrieve(paymentIntentId);
    } catch (error) {
      if (error instanceof NotFoundException) return undefined;
      throw error;
    }
  }

  /**
   * Moves the PAYMENT_PENDING order of the intent to PAID or PAYMENT_FAILED, only if intent, amount and currency
   * match it; anything else (already settled, unknown order) is logged and left alone.
   */
  private async settleIntent(intent: PaymentIntent): Promise<void> {
    const to = intent.status === PaymentIntentStatus.SUCCEEDED ? OrderStatus.PAID : OrderStatus.PAYMENT_FAILED;
    const where = { paymentIntentId: intent.id, total: intent.amount, currencyCode: intent.currency };
    try {
      await this.transitions.move(intent.orderId, to, `system:${this.provider.name}`, { where });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.logger.warn(`Payment intent ${intent.id} not applied to order ${intent.orderId}: ${error.message}`);
    }
  }
}

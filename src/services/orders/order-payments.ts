import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { OnDomainEvent } from '../../events/domain-events';
import { Principal } from '../../common/principal';
import {
  CardChargeEvent,
  CardPaymentEventType,
  CardPaymentProvider,
  ChargeRequest,
  PaymentIntent,
  PaymentIntentStatus,
  PaymentStatus,
} from '../payments';
import { OrderPaymentFlow } from './order-payment-flow';
import { OrderStatus } from './order-status';
import { StoredOrder } from './order.view';
import { codedError } from '../../common/errors/coded-exception';

/** The intent status each card event claims. */
const CLAIMED_STATUS: Record<CardPaymentEventType, PaymentIntentStatus> = {
  [CardPaymentEventType.SUCCEEDED]: PaymentIntentStatus.SUCCEEDED,
  [CardPaymentEventType.FAILED]: PaymentIntentStatus.FAILED,
};

export type ChargeOptions = Pick<ChargeRequest, 'description' | 'destinationAccountId' | 'metadata' | 'returnUrl'>;

/** Charges orders through the active card provider and settles them from its webhooks (DESIGN §7, §8). */
@Injectable()
export class OrderPayments {
  private readonly logger = new Logger(OrderPayments.name);

  constructor(
    private readonly provider: CardPaymentProvider,
    private readonly flow: OrderPaymentFlow,
  ) {}

  get providerName(): string {
    return this.provider.name;
  }

  /**
   * Charges the order's card through the payment state machine ({@link OrderPaymentFlow.begin}): never a second
   * charge. A 3-D Secure card leaves the order PAYMENT_PENDING until the provider's webhook.
   */
  async pay(orderId: string, payer: Principal, options: ChargeOptions = {}): Promise<PaymentStatus> {
    const order = await this.flow.payable(orderId, payer);
    if (!order.paymentMethodId) {
      throw codedError(
        'PAYMENT_METHOD_REQUIRED',
        'Choose a card first: digitalOrderCheckout with orderId and paymentMethodId',
      );
    }
    const pending = await this.flow.begin(order, payer);
    const intent = await this.charge(pending, options).catch((error: unknown) =>
      this.flow.notStarted(pending, payer, error),
    );
    return this.outcome(pending, intent, payer);
  }

  /** The challenge URL of the order's pending 3-D Secure payment. */
  async threeDSecureLink(orderId: string, buyer: Principal): Promise<string> {
    const order = await this.flow.payable(orderId, buyer);
    if (order.status !== OrderStatus.PAYMENT_PENDING || !order.paymentIntentId) {
      throw codedError('ORDER_STATUS_CONFLICT', `Order ${orderId} is ${order.status}: no payment awaits 3-D Secure`);
    }
    return this.provider.threeDSecureLink(order.paymentIntentId);
  }

  /**
   * Asks the provider about every PAYMENT_PENDING order and settles those it has decided: a safety net for
   * webhooks that never arrived.
   */
  async reconcile(): Promise<void> {
    for (const paymentIntentId of await this.flow.pendingPaymentIds()) {
      const intent = await this.provider.retrieve(paymentIntentId);
      if (intent.status !== PaymentIntentStatus.REQUIRES_ACTION) await this.settleIntent(intent);
    }
  }

  /**
   * Decides a card payment its buyer left pending past ORDER_PAYMENT_TTL (a 3-D Secure challenge never answered): an
   * intent still awaiting the buyer is canceled at the provider first, so a late challenge cannot charge; then the
   * order is settled as the provider decided (PAID when the buyer won the race, else PAYMENT_FAILED). Undefined for
   * a payment the card provider does not know (the alternative payment provider's): left alone.
   */
  async abandon(paymentIntentId: string): Promise<PaymentIntent | undefined> {
    const intent = await this.retrieveKnown(paymentIntentId);
    if (!intent) return undefined;
    const decided =
      intent.status === PaymentIntentStatus.REQUIRES_ACTION ? await this.provider.cancel(intent.id) : intent;
    await this.settleIntent(decided);
    return decided;
  }

  private charge(order: StoredOrder, options: ChargeOptions): Promise<PaymentIntent> {
    const orderId = String(order._id);
    return this.provider.charge({
      ...options,
      orderId,
      amount: order.total,
      currency: order.currencyCode,
      paymentMethodId: String(order.paymentMethodId),
      customerId: order.embeddedBuyer.userId,
      returnUrl: options.returnUrl ?? order.paymentReturnUrl,
      // One key per attempt: the time line grows with every retry.
      idempotencyKey: `${orderId}:${order.orderTimeLines.length}`,
    });
  }

  private async outcome(order: StoredOrder, intent: PaymentIntent, payer: Principal): Promise<PaymentStatus> {
    const orderId = String(order._id);
    let settled: StoredOrder;
    let nextActionUrl: string | undefined;
    if (intent.status === PaymentIntentStatus.REQUIRES_ACTION) {
      await this.flow.awaitDecision(order, intent.id);
      settled = order;
      nextActionUrl = await this.provider.threeDSecureLink(intent.id);
    } else {
      settled = await this.flow.decided(order, intent.id, intent.status === PaymentIntentStatus.SUCCEEDED, payer);
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
  @OnDomainEvent('payment.succeeded')
  @OnDomainEvent('payment.failed')
  async settle(event: CardChargeEvent): Promise<void> {
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

  private settleIntent(intent: PaymentIntent): Promise<void> {
    return this.flow.settle(intent, intent.status === PaymentIntentStatus.SUCCEEDED, this.provider.name);
  }
}

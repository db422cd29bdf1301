import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ScheduledTask } from '../../scheduling/scheduled-task.decorator';
import { PaymentIntentStatus } from '../payments';
import { OrderCancellation } from './order-cancellation';
import { OrderPayments } from './order-payments';
import { OrderRepository } from './order.repository';
import { isRefusal } from './refusal';

export const EXPIRY_ACTOR = 'system:payment-ttl';
/** Orders canceled per query; the next sweep takes the rest. */
const BATCH = 100;
const MAX_SWEEP_EVERY_MS = 60_000;

/**
 * Unpaid orders (NEW, APPROVED, PAYMENT_FAILED) older than `ORDER_PAYMENT_TTL` become CANCELED by
 * `system:payment-ttl` and give their stock back. A card payment left PAYMENT_PENDING (a 3-D Secure challenge never
 * answered) for longer than the TTL is decided with the provider first ({@link OrderPayments.abandon}: canceled
 * there, the order PAYMENT_FAILED, or PAID when the buyer completed it meanwhile), and a failed one canceled. The
 * instance holding the task's lease sweeps every min(TTL / 4, 1 min); each order is canceled by one conditional update,
 * so even when instances sweep at once (a direct call, a lease that lapsed) only one of them cancels it and releases
 * its stock.
 */
@Injectable()
export class OrderExpiry {
  private readonly logger = new Logger(OrderExpiry.name);

  constructor(
    private readonly orders: OrderRepository,
    private readonly cancellation: OrderCancellation,
    private readonly payments: OrderPayments,
    private readonly config: AppConfig,
  ) {}

  /**
   * Decides the payments left pending longer than the TTL, then cancels the unpaid orders older than the TTL (a
   * batch of each); how many this instance canceled.
   */
  @ScheduledTask({
    name: 'order-expiry',
    everyMs: (config) => Math.min(config.orderPaymentTtlMs / 4, MAX_SWEEP_EVERY_MS),
    reports: 'unpaid order(s) canceled after ORDER_PAYMENT_TTL',
  })
  async sweep(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.orderPaymentTtlMs);
    return (await this.abandonPending(cutoff)) + (await this.cancelUnpaid(cutoff));
  }

  private async cancelUnpaid(cutoff: Date): Promise<number> {
    const expired = await this.orders.unpaidCreatedBefore(cutoff, BATCH);
    let canceled = 0;
    for (const { _id } of expired) {
      if (await this.expire(String(_id), cutoff)) canceled++;
    }
    return canceled;
  }

  /** PAYMENT_PENDING orders unchanged since before the cutoff, by the card payment they wait for. */
  private async abandonPending(cutoff: Date): Promise<number> {
    const stale = await this.orders.pendingUnchangedBefore(cutoff, BATCH);
    let canceled = 0;
    for (const { _id, paymentIntentId } of stale) {
      if (await this.abandon(String(_id), paymentIntentId)) canceled++;
    }
    return canceled;
  }

  /** One order's failure (e.g. the provider unreachable) is logged and retried by the next sweep, not the others'. */
  private async abandon(orderId: string, paymentIntentId: string): Promise<boolean> {
    try {
      const intent = await this.payments.abandon(paymentIntentId);
      return Boolean(intent && intent.status !== PaymentIntentStatus.SUCCEEDED && (await this.expire(orderId)));
    } catch (error) {
      this.logger.error(`Deciding the pending payment of order ${orderId} failed: ${(error as Error).message}`);
      return false;
    }
  }

  /** False when the order was paid, canceled or removed meanwhile (by the buyer, or another instance's sweep). */
  private async expire(orderId: string, cutoff?: Date): Promise<boolean> {
    try {
      await this.cancellation.cancelUnpaid(orderId, EXPIRY_ACTOR, cutoff ? { createdAt: { $lt: cutoff } } : {});
      return true;
    } catch (error) {
      if (isRefusal(error)) return false;
      throw error;
    }
  }
}

import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { AppConfig } from '../../config/app-config';
import { OrderCancellation } from './order-cancellation';
import { UNPAID } from './order-status';
import { Order } from './order.schema';
import { isRefusal } from './refusal';

export const EXPIRY_ACTOR = 'system:payment-ttl';
/** Orders canceled per query; the next sweep takes the rest. */
const BATCH = 100;
const MAX_SWEEP_EVERY_MS = 60_000;

/**
 * Unpaid orders (NEW, APPROVED, PAYMENT_FAILED; never PAYMENT_PENDING, whose charge is in flight) older than
 * `ORDER_PAYMENT_TTL` become CANCELED by `system:payment-ttl` and give their stock back. Every instance sweeps
 * every min(TTL / 4, 1 min); each order is canceled by one conditional update, so when instances sweep at once
 * only one of them cancels it and releases its stock.
 */
@Injectable()
export class OrderExpiry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OrderExpiry.name);
  private timer?: NodeJS.Timeout;
  private sweeping = false;

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly cancellation: OrderCancellation,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = Math.min(this.config.orderPaymentTtlMs / 4, MAX_SWEEP_EVERY_MS);
    this.timer = setInterval(() => void this.sweepInBackground(), everyMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Cancels the unpaid orders older than the TTL (a batch of them); how many this instance canceled. */
  async sweep(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.orderPaymentTtlMs);
    const expired = await this.orders
      .find({ status: { $in: UNPAID }, createdAt: { $lt: cutoff } }, { _id: 1 })
      .sort({ createdAt: 1 })
      .limit(BATCH)
      .lean<{ _id: Types.ObjectId }[]>()
      .exec();
    let canceled = 0;
    for (const { _id } of expired) {
      if (await this.expire(String(_id), cutoff)) canceled++;
    }
    return canceled;
  }

  /** False when the order was paid, canceled or removed meanwhile (by the buyer, or another instance's sweep). */
  private async expire(orderId: string, cutoff: Date): Promise<boolean> {
    try {
      await this.cancellation.cancelUnpaid(orderId, EXPIRY_ACTOR, { createdAt: { $lt: cutoff } });
      return true;
    } catch (error) {
      if (isRefusal(error)) return false;
      throw error;
    }
  }

  private async sweepInBackground(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const canceled = await this.sweep();
      if (canceled > 0) this.logger.log(`Canceled ${canceled} unpaid order(s) after ORDER_PAYMENT_TTL`);
    } catch (error) {
      this.logger.error('Sweeping unpaid orders failed', error instanceof Error ? error.stack : String(error));
    } finally {
      this.sweeping = false;
    }
  }
}

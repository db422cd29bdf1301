import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Types } from 'mongoose';
import { AppConfig } from '../../config/app-config';
import { BuyerCreditNote } from './buyer-credit-note';
import { OrderEvents, paidEntryOf } from './order-events';
import { OrderRepository } from './order.repository';

/** Orders retried per sweep; the next sweep takes the rest. */
const BATCH = 100;
const MAX_SWEEP_EVERY_MS = 60_000;

/**
 * Emits `order.paid` again ({@link OrderEvents.paid}: the buyer's invoice, the paid mails), after issuing the credit
 * notes still missing of settled refunds, for paid orders still marked `invoiceDueAt` more than
 * `INVOICE_RETRY_AFTER` ago: a listener or a credit note failed, or the process died between the payment and the
 * event.
 * Every instance sweeps every min(INVOICE_RETRY_AFTER / 4, 1 min). Each order is claimed by one conditional update
 * that moves its mark to now, so one instance retries it and the others skip it until the next period; the
 * listeners are idempotent (one invoice per order and one mail per order and kind, by unique indexes), so even a
 * stale retry issues nothing twice.
 */
@Injectable()
export class OrderPaidRetry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OrderPaidRetry.name);
  private timer?: NodeJS.Timeout;
  private sweeping = false;

  constructor(
    private readonly orders: OrderRepository,
    private readonly orderEvents: OrderEvents,
    private readonly creditNotes: BuyerCreditNote,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = Math.min(this.config.invoiceRetryAfterMs / 4, MAX_SWEEP_EVERY_MS);
    this.timer = setInterval(() => void this.sweepInBackground(), everyMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Emits `order.paid` again for the orders due before `now - INVOICE_RETRY_AFTER`; how many this instance completed. */
  async sweep(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.invoiceRetryAfterMs);
    const due = await this.orders.dueForRetry(cutoff, BATCH);
    let completed = 0;
    for (const seen of due) {
      if (await this.retry(seen, now)) completed++;
    }
    return completed;
  }

  /** False when another instance claimed the order first, or a listener failed again (logged; retried later). */
  private async retry(seen: { _id: Types.ObjectId; invoiceDueAt: Date }, now: Date): Promise<boolean> {
    const claimed = await this.orders.claimPaidForRetry(seen, now);
    if (!claimed) return false;
    try {
      // Credit notes first: the event removes the mark once its own listeners succeeded.
      await this.creditNotes.issueMissing(claimed);
      const entry = paidEntryOf(claimed);
      return entry ? await this.orderEvents.paid({ order: claimed, entry }) : false;
    } catch (error) {
      this.logger.error(`Retrying order.paid of order ${String(seen._id)} failed: ${(error as Error).message}`);
      return false;
    }
  }

  private async sweepInBackground(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const completed = await this.sweep();
      if (completed > 0) this.logger.log(`Issued what ${completed} paid order(s) still owed (invoices)`);
    } catch (error) {
      this.logger.error('Sweeping paid orders that owe their invoice failed', (error as Error).stack ?? String(error));
    } finally {
      this.sweeping = false;
    }
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ScheduledTask } from '../../scheduling/scheduled-task.decorator';
import { retryDue } from './due-retry';
import { OrderEvents, paidEntryOf } from './order-events';
import { OrderRepository } from './order.repository';

const MAX_SWEEP_EVERY_MS = 60_000;

/** Every min(INVOICE_RETRY_AFTER / 4, 1 min): the period of the retry sweeps of owed work. */
export function retryEveryMs(config: AppConfig): number {
  return Math.min(config.invoiceRetryAfterMs / 4, MAX_SWEEP_EVERY_MS);
}

/**
 * Emits `order.paid` again ({@link OrderEvents.paid}: the buyer's invoice, the paid mails) for paid orders still
 * marked `invoiceDueAt` more than `INVOICE_RETRY_AFTER` ago: a listener failed, or the process died between the
 * payment and the event. The listeners are idempotent (one invoice per order and one mail per order and kind, by
 * unique indexes), so even a stale retry issues nothing twice.
 */
@Injectable()
export class OrderPaidRetry {
  private readonly logger = new Logger(OrderPaidRetry.name);

  constructor(
    private readonly orders: OrderRepository,
    private readonly orderEvents: OrderEvents,
    private readonly config: AppConfig,
  ) {}

  /** Emits `order.paid` again for the orders due before `now - INVOICE_RETRY_AFTER`; how many this instance completed. */
  @ScheduledTask({ name: 'order-paid-retry', everyMs: retryEveryMs, reports: 'paid order(s) got their invoice' })
  sweep(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.invoiceRetryAfterMs);
    return retryDue(
      this.orders,
      { mark: 'invoiceDueAt', cutoff, now },
      (claimed) => {
        const entry = paidEntryOf(claimed);
        return entry ? this.orderEvents.paid({ order: claimed, entry }) : Promise.resolve(false);
      },
      this.logger,
    );
  }
}

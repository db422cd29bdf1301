import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ScheduledTask } from '../../scheduling/scheduled-task.decorator';
import { BuyerCreditNote } from './buyer-credit-note';
import { retryDue } from './due-retry';
import { retryEveryMs } from './order-paid-retry';
import { OrderRepository } from './order.repository';

/**
 * Issues the credit notes still missing of settled refunds, for orders marked `creditNoteDueAt` more than
 * `INVOICE_RETRY_AFTER` ago: issuing failed, or the process died between the refund's settlement (which set the mark
 * in its own update) and the note. A note is issued once per refund (its reference), so a stale retry issues nothing
 * twice.
 */
@Injectable()
export class CreditNoteRetry {
  private readonly logger = new Logger(CreditNoteRetry.name);

  constructor(
    private readonly orders: OrderRepository,
    private readonly creditNotes: BuyerCreditNote,
    private readonly config: AppConfig,
  ) {}

  /** Issues the notes owed since before `now - INVOICE_RETRY_AFTER`; how many orders this instance completed. */
  @ScheduledTask({
    name: 'credit-note-retry',
    everyMs: retryEveryMs,
    reports: 'refunded order(s) got their credit notes',
  })
  sweep(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.invoiceRetryAfterMs);
    return retryDue(
      this.orders,
      { mark: 'creditNoteDueAt', cutoff, now },
      async (claimed) => {
        await this.creditNotes.issueMissing(claimed);
        return true;
      },
      this.logger,
    );
  }
}

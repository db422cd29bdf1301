import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { ScheduledTask } from '../../scheduling/scheduled-task.decorator';
import { OrderMail, OrderMailState, StoredOrderMail } from './order-mail.schema';
import { OrderMailSender } from './order-mail-sender';

/** How long a claimed attempt is reserved for the instance sending it (an SMTP exchange takes far less). */
const LEASE_MS = 60_000;
/** How often every instance looks for due mails, whoever queued them. */
const POLL_MS = 1000;
const BATCH = 20;
/** The first retry's delay; each further one doubles it, up to the cap. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 15 * 60_000;
/** About 2.5 hours of retries: 1 s, 2 s, ... up to 15 minutes apart. */
export const MAX_ATTEMPTS = 20;

export type QueuedMail = Pick<OrderMail, 'key' | 'kind' | 'orderId' | 'to' | 'lang' | 'refundId'>;

/**
 * The persisted outbox of order mails. A mail is stored first (its unique `key`: once per order and kind, however
 * often its event comes and on however many instances), then sent: any instance claims a due one with a conditional
 * write that moves `nextAttemptAt` past a lease, so one instance sends a given attempt; a failed attempt (SMTP down)
 * is retried with exponential back-off by the instance that polls (the holder of the `order-mail-outbox` task's lease). A process that dies after the SMTP server
 * accepted a mail but before recording it sends it again after the lease: at least once in that window, exactly once
 * otherwise.
 */
@Injectable()
export class OrderMailOutbox implements OnModuleDestroy {
  private readonly logger = new Logger(OrderMailOutbox.name);
  private stopped = false;
  /** Sends under way: shutdown waits for them to be recorded, so that none is left claimed for `LEASE_MS`. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @InjectModel(OrderMail.name) private readonly mails: Model<OrderMail>,
    private readonly sender: OrderMailSender,
  ) {}

  /** Stores the mail unless its key is queued already, then tries it at once; resolves once stored. */
  async enqueue(mail: QueuedMail): Promise<void> {
    try {
      const { _id: id } = await this.mails.create({ ...mail, nextAttemptAt: new Date() });
      void this.attemptLogged(id);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** Runs before the database closes (Nest's order); the process's shutdown bound caps the wait for a slow SMTP. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /** The poll: due mails, whoever queued them (a retry whose instance stopped included). */
  @ScheduledTask({ name: 'order-mail-outbox', everyMs: () => POLL_MS })
  async attemptDue(): Promise<void> {
    try {
      const due = { state: OrderMailState.PENDING, nextAttemptAt: { $lte: new Date() } };
      const rows = await this.mails.find(due, { _id: 1 }).sort({ nextAttemptAt: 1 }).limit(BATCH).lean().exec();
      for (const { _id: id } of rows) await this.attemptLogged(id);
    } catch (error) {
      if (!this.stopped) this.logger.error(`Polling the mail outbox failed: ${(error as Error).message}`);
    }
  }

  private attemptLogged(id: Types.ObjectId): Promise<void> {
    const attempt = this.attempt(id)
      .catch((error: unknown) => {
        if (!this.stopped) this.logger.error(`Order mail ${String(id)}: ${(error as Error).message}`);
      })
      .finally(() => this.inFlight.delete(attempt));
    this.inFlight.add(attempt);
    return attempt;
  }

  /** Claims the mail if it is due and sends it; does nothing when another instance claimed it first. */
  private async attempt(id: Types.ObjectId): Promise<void> {
    if (this.stopped) return;
    const now = new Date();
    const claimed = await this.mails
      .findOneAndUpdate(
        { _id: id, state: OrderMailState.PENDING, nextAttemptAt: { $lte: now } },
        { $set: { nextAttemptAt: new Date(now.getTime() + LEASE_MS) }, $inc: { attempts: 1 } },
        { returnDocument: 'after' },
      )
      .lean<StoredOrderMail>()
      .exec();
    if (!claimed) return;
    try {
      await this.sender.send(claimed);
    } catch (error) {
      await this.failed(claimed, (error as Error).message);
      return;
    }
    await this.mails.updateOne({ _id: id }, { $set: { state: OrderMailState.SENT, sentAt: new Date() } }).exec();
  }

  private async failed(mail: StoredOrderMail, error: string): Promise<void> {
    if (mail.attempts >= MAX_ATTEMPTS) {
      this.logger.error(
        `${mail.kind} mail of order ${mail.orderId} abandoned after ${mail.attempts} attempts: ${error}`,
      );
      await this.mails.updateOne({ _id: mail._id }, { $set: { state: OrderMailState.ABANDONED, lastError: error } });
      return;
    }
    this.logger.warn(`${mail.kind} mail of order ${mail.orderId} failed (attempt ${mail.attempts}): ${error}`);
    const delayMs = Math.min(FIRST_RETRY_MS * 2 ** (mail.attempts - 1), MAX_RETRY_MS);
    const nextAttemptAt = new Date(Date.now() + delayMs);
    await this.mails.updateOne({ _id: mail._id }, { $set: { nextAttemptAt, lastError: error } }).exec();
  }
}

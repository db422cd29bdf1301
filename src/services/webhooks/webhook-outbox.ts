import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ScheduledTask } from '../../scheduling/scheduled-task.decorator';
import { DeliveryState, WebhookDelivery } from './webhook-delivery.schema';
import { PostOutcome, postWebhook } from './webhook-post';

const TIMEOUT_MS = 5000;
/** How long a claimed attempt stays reserved for the instance posting it (past the attempt's timeout). */
export const LEASE_MS = TIMEOUT_MS + 5000;
/** How often every instance looks for due deliveries, whoever queued them. */
const POLL_MS = 1000;

/** How one kind of webhook is sent: the same on every instance (from the configuration). */
export interface WebhookSender {
  token: string;
  maxAttempts: number;
  /** The first retry's delay; each further one doubles it. */
  backoffMs: number;
}

/**
 * The durable outbox of outgoing webhooks (DESIGN §8). A delivery is stored before its first attempt; any instance
 * claims a due one (a conditional write moving `nextAttemptAt` past the attempt's timeout, so one instance posts a
 * given attempt), posts it with an `Idempotency-Key` (the delivery's id), records the attempt and schedules the
 * retry with exponential back-off in the database. The instance holding the `webhook-outbox` task's lease polls for
 * due deliveries, so a retry whose instance stopped is delivered by another one; local timers only make the next
 * attempt prompt.
 */
@Injectable()
export class WebhookOutbox implements OnModuleDestroy {
  private readonly logger = new Logger(WebhookOutbox.name);
  private readonly instance = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly senders = new Map<string, WebhookSender>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stopping = new AbortController();
  /** Attempts under way, so that shutdown can wait until their claims are handed back. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(@InjectModel(WebhookDelivery.name) private readonly deliveries: Model<WebhookDelivery>) {}

  /** Declares how `event` webhooks are sent; deliveries of an event no instance registered stay pending. */
  register(event: string, sender: WebhookSender): void {
    this.senders.set(event, sender);
  }

  /** Stores one delivery per subscriber, then attempts them; resolves once stored. */
  async enqueue(event: string, urls: string[], body: string): Promise<void> {
    const rows = urls.map((url) => ({ event, url, body, nextAttemptAt: new Date() }));
    const inserted = await this.deliveries.insertMany(rows);
    inserted.forEach((row) => this.wakeUp(row._id, 0));
  }

  /** Runs before the database closes (Nest's order): the posts under way are aborted and their claims handed back. */
  async onModuleDestroy(): Promise<void> {
    this.timers.forEach(clearTimeout);
    this.timers.clear();
    this.stopping.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  /** The poll: due deliveries, whoever queued them (a retry whose instance stopped included). */
  @ScheduledTask({ name: 'webhook-outbox', everyMs: () => POLL_MS })
  async attemptDue(): Promise<void> {
    try {
      const events = [...this.senders.keys()];
      const due = { state: DeliveryState.PENDING, event: { $in: events }, nextAttemptAt: { $lte: new Date() } };
      const rows = await this.deliveries.find(due, { _id: 1 }).sort({ nextAttemptAt: 1 }).limit(100).lean().exec();
      await Promise.all(rows.map((row) => this.attempt(row._id)));
    } catch (error) {
      if (!this.stopping.signal.aborted) this.logger.error('Polling the webhook outbox', String(error));
    }
  }

  private wakeUp(id: Types.ObjectId, delayMs: number): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.attempt(id).catch((error: unknown) => this.logger.error(`Webhook delivery ${String(id)}`, String(error)));
      },
      Math.max(0, delayMs),
    );
    timer.unref();
    this.timers.add(timer);
  }

  private attempt(id: Types.ObjectId): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    const attempt = this.claimAndPost(id).finally(() => this.inFlight.delete(attempt));
    this.inFlight.add(attempt);
    return attempt;
  }

  /** Claims the delivery if it is due and posts it; does nothing when another instance claimed it first. */
  private async claimAndPost(id: Types.ObjectId): Promise<void> {
    const now = new Date();
    const claimed = await this.deliveries
      .findOneAndUpdate(
        { _id: id, state: DeliveryState.PENDING, nextAttemptAt: { $lte: now } },
        { $set: { nextAttemptAt: new Date(now.getTime() + LEASE_MS) }, $inc: { attempts: 1 } },
        { returnDocument: 'after' },
      )
      .lean()
      .exec();
    const sender = claimed && this.senders.get(claimed.event);
    if (!claimed || !sender) return;
    const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(TIMEOUT_MS)]);
    const post = { url: claimed.url, body: claimed.body, token: sender.token, idempotencyKey: String(id) };
    const outcome = await postWebhook(post, signal);
    if (this.stopping.signal.aborted) return this.handBack(claimed);
    await this.record(claimed, sender, now, outcome);
  }

  /**
   * Shutting down mid-attempt: the delivery is due again at once, for another instance, and the aborted attempt
   * does not count against `maxAttempts`. Conditioned on this claim, so a claim that lapsed meanwhile is left alone.
   * The subscriber may have received the aborted post: the retry carries the same `Idempotency-Key`.
   */
  private async handBack(claimed: WebhookDelivery & { _id: Types.ObjectId }): Promise<void> {
    const mine = { _id: claimed._id, state: DeliveryState.PENDING, nextAttemptAt: claimed.nextAttemptAt };
    await this.deliveries
      .updateOne(mine, { $set: { nextAttemptAt: new Date() }, $inc: { attempts: -1 } })
      .exec()
      .catch((error: unknown) =>
        this.logger.error(`Handing back webhook delivery ${String(claimed._id)}`, String(error)),
      );
  }

  private async record(
    delivery: WebhookDelivery & { _id: Types.ObjectId },
    sender: WebhookSender,
    at: Date,
    outcome: PostOutcome,
  ): Promise<void> {
    const { _id: id, attempts, event, url } = delivery;
    const error = outcome.result === 'delivered' ? undefined : outcome.error;
    const attempt = { at, instance: this.instance, status: outcome.status, error };
    const finished = { finishedAt: new Date(), lastError: error };
    if (outcome.result === 'delivered') {
      await this.log(id, { state: DeliveryState.DELIVERED, ...finished }, attempt);
    } else if (outcome.result === 'refused' || attempts >= sender.maxAttempts) {
      this.logger.warn(`${event} webhook to ${url} abandoned after attempt ${attempts}: ${error}`);
      await this.log(id, { state: DeliveryState.ABANDONED, ...finished }, attempt);
    } else {
      const delayMs = sender.backoffMs * 2 ** (attempts - 1);
      await this.log(id, { nextAttemptAt: new Date(Date.now() + delayMs), lastError: error }, attempt);
      this.wakeUp(id, delayMs);
    }
  }

  private async log(id: Types.ObjectId, set: Partial<WebhookDelivery>, attempt: WebhookDelivery['attemptLog'][0]) {
    await this.deliveries.updateOne({ _id: id }, { $set: set, $push: { attemptLog: attempt } }).exec();
  }
}

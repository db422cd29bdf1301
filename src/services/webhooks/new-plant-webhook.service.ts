import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { DeliveryState, WebhookDelivery } from './webhook-delivery.schema';
import { PostOutcome, postWebhook } from './webhook-post';

const EVENT = 'New Plant';
const TIMEOUT_MS = 5000;
/** How long a claimed delivery stays reserved for the instance posting it. */
const LEASE_MS = TIMEOUT_MS + 5000;

/**
 * Announces new plants (products) to every configured subscriber (DESIGN §8): an HTTP POST with
 * `Authorization: Bearer <token>`, retried with exponential backoff. Fire-and-forget: `announce` returns at once
 * and failures are only logged, so the request that created the product never waits or fails for it. Deliveries
 * are kept in an outbox collection, so the ones still pending when the server stops resume at the next start.
 */
@Injectable()
export class NewPlantWebhook implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(NewPlantWebhook.name);
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stopping = new AbortController();
  private readonly config: AppConfig['newPlantWebhook'];

  constructor(
    config: AppConfig,
    @InjectModel(WebhookDelivery.name) private readonly deliveries: Model<WebhookDelivery>,
  ) {
    this.config = config.newPlantWebhook;
  }

  announce(plant: Record<string, unknown>): void {
    if (this.config.urls.length === 0) return;
    const body = JSON.stringify({ event: EVENT, id: randomUUID(), data: plant, timestamp: new Date().toISOString() });
    const rows = this.config.urls.map((url) => ({ event: EVENT, url, body, nextAttemptAt: new Date() }));
    this.deliveries.insertMany(rows).then(
      (inserted) => inserted.forEach((row) => this.schedule(row._id, 0)),
      (error: unknown) => this.logger.error(`Could not queue the ${EVENT} webhook`, (error as Error).stack),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    const pending = await this.deliveries.find({ event: EVENT, state: DeliveryState.PENDING }, { nextAttemptAt: 1 });
    for (const row of pending) this.schedule(row._id, row.nextAttemptAt.getTime() - Date.now());
  }

  onModuleDestroy(): void {
    this.timers.forEach(clearTimeout);
    this.timers.clear();
    this.stopping.abort();
  }

  private schedule(id: Types.ObjectId, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(id).catch((error: unknown) => this.logger.error(`Webhook delivery ${String(id)}`, String(error)));
    }, Math.max(0, delayMs));
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(id: Types.ObjectId): Promise<void> {
    const now = new Date();
    const claimed = await this.deliveries.findOneAndUpdate(
      { _id: id, state: DeliveryState.PENDING, nextAttemptAt: { $lte: now } },
      { $set: { nextAttemptAt: new Date(now.getTime() + LEASE_MS) }, $inc: { attempts: 1 } },
      { new: true },
    );
    if (!claimed) return;
    const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(TIMEOUT_MS)]);
    const outcome = await postWebhook(claimed.url, claimed.body, this.config.token, signal);
    if (this.stopping.signal.aborted) return;
    await this.record(id, claimed.attempts, claimed.url, outcome);
  }

  private async record(id: Types.ObjectId, attempts: number, url: string, outcome: PostOutcome): Promise<void> {
    if (outcome.result === 'delivered') {
      await this.deliveries.updateOne({ _id: id }, { state: DeliveryState.DELIVERED, finishedAt: new Date() });
      return;
    }
    if (outcome.result === 'refused' || attempts >= this.config.maxAttempts) {
      this.logger.warn(`${EVENT} webhook to ${url} abandoned after attempt ${attempts}: ${outcome.error}`);
      const finished = { state: DeliveryState.ABANDONED, finishedAt: new Date(), lastError: outcome.error };
      await this.deliveries.updateOne({ _id: id }, finished);
      return;
    }
    const delayMs = this.config.backoffMs * 2 ** (attempts - 1);
    const retry = { nextAttemptAt: new Date(Date.now() + delayMs), lastError: outcome.error };
    await this.deliveries.updateOne({ _id: id }, retry);
    this.schedule(id, delayMs);
  }
}

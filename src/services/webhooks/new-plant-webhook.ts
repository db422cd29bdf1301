import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { WebhookOutbox } from './webhook-outbox';

const EVENT = 'New Plant';

/**
 * Announces new plants (products) to every configured subscriber (DESIGN §8): an HTTP POST with
 * `Authorization: Bearer <token>` and an `Idempotency-Key`, through the durable {@link WebhookOutbox}, retried
 * with exponential backoff by whichever instance is up. Fire-and-forget: `announce` returns at once and failures
 * are only logged, so the request that created the product never waits or fails for it.
 */
@Injectable()
export class NewPlantWebhook {
  private readonly logger = new Logger(NewPlantWebhook.name);
  private readonly urls: string[];

  constructor(
    config: AppConfig,
    private readonly outbox: WebhookOutbox,
  ) {
    const { urls, token, maxAttempts, backoffMs } = config.newPlantWebhook;
    this.urls = urls;
    outbox.register(EVENT, { token, maxAttempts, backoffMs });
  }

  announce(plant: Record<string, unknown>): void {
    if (this.urls.length === 0) return;
    const body = JSON.stringify({ event: EVENT, id: randomUUID(), data: plant, timestamp: new Date().toISOString() });
    this.outbox
      .enqueue(EVENT, this.urls, body)
      .catch((error: unknown) => this.logger.error(`Could not queue the ${EVENT} webhook`, (error as Error).stack));
  }
}

import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app-config';

const TIMEOUT_MS = 5000;

/** Statuses worth another attempt; any other 4xx means the subscriber refuses this delivery for good. */
const RETRYABLE = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * Announces new plants (products) to every configured subscriber (DESIGN §8): an HTTP POST with
 * `Authorization: Bearer <token>`, retried with exponential backoff. Fire-and-forget: `announce` returns at once
 * and delivery failures are only logged, so the request that created the product never waits or fails for it.
 */
@Injectable()
export class NewPlantWebhook implements OnModuleDestroy {
  private readonly logger = new Logger(NewPlantWebhook.name);
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new AbortController();

  private readonly config: AppConfig['newPlantWebhook'];

  constructor(config: AppConfig) {
    this.config = config.newPlantWebhook;
  }

  announce(plant: Record<string, unknown>): void {
    if (this.config.urls.length === 0) return;
    const body = JSON.stringify({
      event: 'New Plant',
      id: randomUUID(),
      data: plant,
      timestamp: new Date().toISOString(),
    });
    for (const url of this.config.urls) this.schedule(url, body, 1, 0);
  }

  onModuleDestroy(): void {
    this.timers.forEach(clearTimeout);
    this.timers.clear();
    this.inFlight.abort();
  }

  private schedule(url: string, body: string, attempt: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.deliver(url, body, attempt);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async deliver(url: string, body: string, attempt: number): Promise<void> {
    const outcome = await this.post(url, body);
    if (outcome === 'delivered' || this.inFlight.signal.aborted) return;
    if (outcome === 'refused' || attempt >= this.config.maxAttempts) {
      this.logger.warn(`New Plant webhook to ${url} abandoned after attempt ${attempt} (${outcome})`);
      return;
    }
    this.schedule(url, body, attempt + 1, this.config.backoffMs * 2 ** (attempt - 1));
  }

  private async post(url: string, body: string): Promise<'delivered' | 'retry' | 'refused'> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.config.token}` },
        body,
        signal: AbortSignal.any([this.inFlight.signal, AbortSignal.timeout(TIMEOUT_MS)]),
      });
      await response.body?.cancel();
      if (response.ok) return 'delivered';
      return RETRYABLE(response.status) ? 'retry' : 'refused';
    } catch (error) {
      this.logger.debug(`New Plant webhook to ${url} failed: ${String(error)}`);
      return 'retry';
    }
  }
}

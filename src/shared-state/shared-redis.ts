import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';

/**
 * Bounds that keep a Redis outage from stalling requests: a connection attempt gives up after CONNECT_TIMEOUT_MS, a
 * command on an open connection after COMMAND_TIMEOUT_MS (a Redis that hangs), and a command while disconnected fails
 * at once (no offline queue, no retries). Failed calls fall back to in-process counters ({@link SharedRedis.orLocal}).
 */
const CONNECT_TIMEOUT_MS = 1000;
const COMMAND_TIMEOUT_MS = 500;
/** Reconnection back-off: 100 ms more per attempt, at most this long, for as long as the outage lasts. */
const MAX_RECONNECT_DELAY_MS = 2000;

/**
 * The instance's connection to the Redis every instance shares (`REDIS_URL`), or none: then per-request counters
 * stay in-process. Every key is written under `REDIS_KEY_PREFIX`. Redis is optional at run time too: while it cannot
 * be reached, callers count in-process ({@link orLocal}), the outage is logged once, and they are back on Redis as
 * soon as it answers again.
 */
@Injectable()
export class SharedRedis implements OnModuleDestroy {
  private readonly logger = new Logger(SharedRedis.name);
  readonly client: Redis | undefined;
  /** Why Redis is not in use, while it is not; undefined while it is. */
  private outage: string | undefined;

  constructor(config: AppConfig) {
    if (!config.redis) return;
    const { url, keyPrefix } = config.redis;
    this.client = new Redis(url, {
      keyPrefix,
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    });
    this.client.on('error', (error: Error) => this.noteOutage(error));
    this.client.on('ready', () => this.noteRecovery());
  }

  /** While Redis is configured but unreachable: why (for readiness); undefined otherwise. */
  get degraded(): string | undefined {
    if (!this.client) return undefined;
    if (this.client.status !== 'ready') return this.outage ?? `not connected (${this.client.status})`;
    return this.outage;
  }

  /**
   * `remote()` while Redis is connected, `local()` while it is not or when `remote()` fails: a Redis outage costs
   * the counters' sharing between instances, never an answer.
   */
  async orLocal<T>(remote: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (this.client?.status !== 'ready') return local();
    try {
      return await remote();
    } catch (error) {
      this.noteOutage(error as Error);
      return local();
    }
  }

  /**
   * QUIT lets pending commands finish; without a connection there are none, and it would wait for one. A QUIT that
   * is not answered within COMMAND_TIMEOUT_MS (a slow Redis, a starved machine) closes the connection all the same:
   * the shutdown goes on (it failed `app.close()` with "Command timed out" at load 20).
   */
  async onModuleDestroy(): Promise<void> {
    if (this.client?.status === 'ready') await this.client.quit().catch(() => this.client?.disconnect());
    else this.client?.disconnect();
  }

  /** Logged once per outage, not once per failed call or reconnection attempt. */
  private noteOutage(error: Error): void {
    if (this.outage !== undefined) return;
    this.outage = error.message;
    this.logger.warn(`Redis unreachable (${error.message}): rate limits are counted in-process until it returns`);
  }

  private noteRecovery(): void {
    if (this.outage === undefined) return;
    this.outage = undefined;
    this.logger.log('Redis is back: rate limits are shared again');
  }
}

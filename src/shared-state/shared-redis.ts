import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';

/** A command waits at most this long for a (re)connection before it fails, rather than hanging a request. */
const MAX_RETRIES_PER_REQUEST = 2;

/**
 * The instance's connection to the Redis every instance shares (`REDIS_URL`), or none: then per-request counters
 * stay in-process. Every key is written under `REDIS_KEY_PREFIX`.
 */
@Injectable()
export class SharedRedis implements OnModuleDestroy {
  private readonly logger = new Logger(SharedRedis.name);
  readonly client: Redis | undefined;

  constructor(config: AppConfig) {
    if (!config.redis) return;
    const { url, keyPrefix } = config.redis;
    this.client = new Redis(url, { keyPrefix, maxRetriesPerRequest: MAX_RETRIES_PER_REQUEST });
    this.client.on('error', (error: Error) => this.logger.warn(`Redis: ${error.message}`));
  }

  /** QUIT lets pending commands finish; without a connection there are none, and it would wait for one. */
  async onModuleDestroy(): Promise<void> {
    if (this.client?.status === 'ready') await this.client.quit();
    else this.client?.disconnect();
  }
}

import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { SharedRedis } from './shared-redis';

type SignalHandler = (message: string) => void;

interface Envelope {
  from: string;
  message: string;
}

/**
 * Notices to the other instances, for what each must do at once rather than at its next periodic check ("this
 * account was disabled: end its live sessions"), over Redis pub/sub (`REDIS_URL`). Best effort: without Redis, or
 * while it is down, a notice reaches no other instance, so what a notice hastens must also happen by itself later.
 * The sender acts on its own instance itself; its own notices are not handed back to it.
 */
@Injectable()
export class ClusterSignals implements OnModuleDestroy {
  private readonly logger = new Logger(ClusterSignals.name);
  private readonly instanceId = randomUUID();
  private readonly handlers = new Map<string, SignalHandler>();
  private readonly channelPrefix: string;
  private subscriber: Redis | undefined;

  constructor(
    private readonly redis: SharedRedis,
    config: AppConfig,
  ) {
    this.channelPrefix = `${config.redis?.keyPrefix ?? ''}signal:`;
  }

  /** Calls `handler` with each notice another instance sends on `channel` (one handler per channel). */
  on(channel: string, handler: SignalHandler): void {
    const prefixed = this.channelPrefix + channel;
    this.handlers.set(prefixed, handler);
    if (!this.subscriber) this.subscriber = this.subscribe();
    else if (this.subscriber.status === 'ready') void this.subscriber.subscribe(prefixed).catch(() => undefined);
  }

  /** Sends a notice to every other instance listening on `channel`; never fails (a Redis outage is logged once). */
  async send(channel: string, message: string): Promise<void> {
    const envelope: Envelope = { from: this.instanceId, message };
    await this.redis.orLocal(
      async () => void (await this.redis.client!.publish(this.channelPrefix + channel, JSON.stringify(envelope))),
      async () => undefined,
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.subscriber?.disconnect();
  }

  /** A connection of its own: a subscribed Redis connection can do nothing else. */
  private subscribe(): Redis | undefined {
    const subscriber = this.redis.client?.duplicate();
    // Subscribed again at every (re)connection; the outage itself is reported by SharedRedis.
    subscriber?.on('ready', () => void subscriber.subscribe(...this.handlers.keys()).catch(() => undefined));
    subscriber?.on('error', () => undefined);
    subscriber?.on('message', (channel: string, raw: string) => this.deliver(channel, raw));
    return subscriber;
  }

  private deliver(channel: string, raw: string): void {
    try {
      const { from, message } = JSON.parse(raw) as Envelope;
      if (from !== this.instanceId) this.handlers.get(channel)?.(message);
    } catch (error) {
      this.logger.warn(`Ignored a notice on ${channel}: ${(error as Error).message}`);
    }
  }
}

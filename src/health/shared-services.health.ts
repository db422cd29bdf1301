import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { MessageBroker } from '../realtime/broker/message-broker';
import { RelayBroker } from '../realtime/broker/relay-broker';
import { SharedRedis } from '../shared-state/shared-redis';
import { withTimeout } from './database.health';

const PING_TIMEOUT_MS = 1000;

/** The services several instances share, each checked only when configured (`REDIS_URL`, `STOMP_RELAY_URL`). */
@Injectable()
export class SharedServicesHealthIndicator {
  constructor(
    private readonly redis: SharedRedis,
    private readonly broker: MessageBroker,
    private readonly health: HealthIndicatorService,
  ) {}

  /** The checks that apply to this instance's configuration. */
  checks(): (() => Promise<HealthIndicatorResult>)[] {
    const checks: (() => Promise<HealthIndicatorResult>)[] = [];
    if (this.redis.client) checks.push(() => this.pingRedis());
    if (this.broker instanceof RelayBroker) checks.push(() => this.relay(this.broker as RelayBroker));
    return checks;
  }

  private async pingRedis(): Promise<HealthIndicatorResult> {
    const check = this.health.check('redis');
    const started = Date.now();
    try {
      await withTimeout(this.redis.client!.ping(), PING_TIMEOUT_MS);
      return check.up({ latencyMs: Date.now() - started });
    } catch (error) {
      return check.down({ message: (error as Error).message });
    }
  }

  /** Down while disconnected: publications then wait in the relay's buffer, or are dropped once it is full. */
  private relay(broker: RelayBroker): Promise<HealthIndicatorResult> {
    const check = this.health.check('relay');
    const { connected, buffered, dropped } = broker.status();
    if (connected) return Promise.resolve(check.up({ buffered, dropped }));
    const message = `not connected; ${buffered} buffered, ${dropped} dropped`;
    return Promise.resolve(check.down({ message, buffered, dropped }));
  }
}

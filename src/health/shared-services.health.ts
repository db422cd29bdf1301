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

  /**
   * Up, and `degraded` with the reason while Redis cannot be reached: the instance still answers every call (its rate
   * limits counted in-process meanwhile), so it stays ready; taking every instance out for a counter store's outage
   * would take the shop down.
   */
  private async pingRedis(): Promise<HealthIndicatorResult> {
    const check = this.health.check('redis');
    const started = Date.now();
    try {
      await withTimeout(this.redis.client!.ping(), PING_TIMEOUT_MS);
      return check.up({ latencyMs: Date.now() - started });
    } catch (error) {
      const reason = this.redis.degraded ?? (error as Error).message;
      return check.up({ degraded: `unreachable (${reason}): rate limits counted in-process` });
    }
  }

  /**
   * Degraded while disconnected: publications then wait in the relay's buffer, or are dropped once it is full, but
   * every REST and STOMP call is still answered, so the instance stays ready (the same rule as for Redis).
   */
  private relay(broker: RelayBroker): Promise<HealthIndicatorResult> {
    const check = this.health.check('relay');
    const { connected, buffered, dropped } = broker.status();
    if (connected) return Promise.resolve(check.up({ buffered, dropped }));
    const degraded = `not connected; ${buffered} buffered, ${dropped} dropped`;
    return Promise.resolve(check.up({ degraded, buffered, dropped }));
  }
}

import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorResult,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { EmbeddedDatabase } from '../database/embedded-database';
import { DatabaseHealthIndicator } from './database.health';
import { SharedServicesHealthIndicator } from './shared-services.health';
import { ShutdownDrain } from './shutdown-drain';

/**
 * Liveness (`/health/live`: the process answers and the embedded database's thread, part of the process, has not
 * died; no outside dependencies, so an orchestrator never restarts the app for a database outage) and readiness (`/health` and `/health/ready`: the database answers a ping, and so does
 * Redis when configured; the STOMP relay, when configured, is connected; the instance is not shutting down).
 * Failures are 503 in the app's one error shape, with a detail per failing check.
 */
@Controller('api/v1/health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
    private readonly shared: SharedServicesHealthIndicator,
    private readonly embedded: EmbeddedDatabase,
    private readonly indicators: HealthIndicatorService,
    private readonly drain: ShutdownDrain,
  ) {}

  @Get('live')
  @HealthCheck()
  live(): Promise<HealthCheckResult> {
    return this.run([() => this.databaseThread()]);
  }

  @Get()
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    const draining = this.drain.draining ? [() => this.shuttingDown()] : [];
    return this.run([...draining, () => this.database.ping(), ...this.shared.checks()]);
  }

  @Get('ready')
  @HealthCheck()
  readyAlias(): Promise<HealthCheckResult> {
    return this.ready();
  }

  /** Up unless the embedded database's thread died (always up with an external MONGODB_URI). */
  private databaseThread(): HealthIndicatorResult {
    const check = this.indicators.check('databaseThread');
    const failure = this.embedded.failure;
    return failure ? check.down({ message: failure.message }) : check.up();
  }

  /** Listed from the shutdown signal on, and down, so that a load balancer polling readiness stops sending here. */
  private shuttingDown(): HealthIndicatorResult {
    return this.indicators.check('shutdown').down({ message: 'the instance is shutting down' });
  }

  private async run(checks: HealthIndicatorFunction[]): Promise<HealthCheckResult> {
    try {
      return await this.health.check(checks);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      throw notReady(error.getResponse() as HealthCheckResult);
    }
  }
}

function notReady(result: HealthCheckResult): ServiceUnavailableException {
  const details = Object.entries(result.error ?? {}).map(([field, state]) => ({
    field,
    message: `${state?.status ?? 'down'}: ${String(state?.message ?? 'unavailable')}`,
  }));
  return new ServiceUnavailableException({
    message: `Not ready: ${details.map((d) => d.field).join(', ')} down`,
    details,
  });
}

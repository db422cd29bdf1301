import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseModule } from '../database/database.module';
import { DatabaseHealthIndicator } from './database.health';
import { HealthController } from './health.controller';
import { SharedServicesHealthIndicator } from './shared-services.health';
import { ShutdownDrain } from './shutdown-drain';

/**
 * `/api/v1/health`: liveness and readiness (database ping; Redis and the STOMP relay when configured), and the
 * drain that starts a shutdown (`ShutdownDrain`).
 */
@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' }), DatabaseModule],
  controllers: [HealthController],
  providers: [DatabaseHealthIndicator, SharedServicesHealthIndicator, ShutdownDrain],
  exports: [ShutdownDrain],
})
export class HealthModule {}

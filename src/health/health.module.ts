import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseModule } from '../database/database.module';
import { DatabaseHealthIndicator } from './database.health';
import { HealthController } from './health.controller';
import { SharedServicesHealthIndicator } from './shared-services.health';

/** `/api/v1/health`: liveness and readiness (database ping; Redis and the STOMP relay when configured). */
@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' }), DatabaseModule],
  controllers: [HealthController],
  providers: [DatabaseHealthIndicator, SharedServicesHealthIndicator],
})
export class HealthModule {}

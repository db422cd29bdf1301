import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobsModule } from '../services/jobs/jobs.module';
import { ScheduledTasks } from './scheduled-tasks';

/** Runs the `@ScheduledTask` methods of every module (see {@link ScheduledTasks}). */
@Module({
  imports: [DiscoveryModule, JobsModule],
  providers: [ScheduledTasks],
})
export class SchedulingModule {}

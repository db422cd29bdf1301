import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { JobCancellation } from './job-cancellation';
import { JobLeases } from './job-leases';
import { LeaseLock, LeaseLockSchema } from './lease-lock.schema';
import { LeaseLocks } from './lease-locks';
import { JobRepository } from './job.repository';
import { JobRunner } from './job-runner';
import { Job, JobSchema } from './job.schema';
import { JobsReport } from './jobs-report';
import { JobsService } from './jobs.service';

/** The jobs bean, the {@link JobRunner} other modules run their work with, and locks across instances. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Job.name, schema: JobSchema },
      { name: LeaseLock.name, schema: LeaseLockSchema },
    ]),
  ],
  providers: [JobsService, JobRepository, JobCancellation, JobLeases, LeaseLocks, JobRunner, JobsReport],
  exports: [JobRunner, LeaseLocks],
})
export class JobsModule {}

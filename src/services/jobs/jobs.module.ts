import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { JobCancellation } from './job-cancellation';
import { JobLeases } from './job-leases';
import { JobRunner } from './job-runner';
import { Job, JobSchema } from './job.schema';
import { JobsReport } from './jobs-report';
import { JobsService } from './jobs.service';

/** The jobs bean and the {@link JobRunner} other modules use to run their work as jobs. */
@Module({
  imports: [MongooseModule.forFeature([{ name: Job.name, schema: JobSchema }])],
  providers: [JobsService, JobCancellation, JobLeases, JobRunner, JobsReport],
  exports: [JobRunner],
})
export class JobsModule {}

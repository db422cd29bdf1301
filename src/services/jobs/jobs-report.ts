import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ReportRegistry } from '../../common/reports/report-registry';
import { ModelReport } from '../../common/reports/model-report';
import { column } from '../../common/reports/report-source';
import { Job } from './job.schema';

type StoredJob = Job & { _id: Types.ObjectId };

/** The `jobs` report: every job with its progress. */
@Injectable()
export class JobsReport extends ModelReport<StoredJob, Job> {
  readonly name = 'jobs';
  readonly columns = [
    column<StoredJob>('id', (job) => job._id),
    column<StoredJob>('type', (job) => job.type),
    column<StoredJob>('description', (job) => job.description),
    column<StoredJob>('status', (job) => job.status),
    column<StoredJob>('current', (job) => job.current),
    column<StoredJob>('total', (job) => job.total),
    column<StoredJob>('progress', (job) => job.progress),
    column<StoredJob>('startedAt', (job) => job.startedAt),
    column<StoredJob>('finishedAt', (job) => job.finishedAt),
    column<StoredJob>('createdAt', (job) => job.createdAt),
  ];

  constructor(@InjectModel(Job.name) jobs: Model<Job>, reports: ReportRegistry) {
    super(reports, jobs);
  }
}

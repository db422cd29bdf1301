import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';
import { JobStatus } from './job-lifecycle';

@Schema({ collection: 'jobs', timestamps: true, versionKey: false })
export class Job {
  @Prop({ required: true, index: true })
  type!: string;

  @Prop({ default: '' })
  description!: string;

  @Prop({ type: String, required: true, enum: Object.values(JobStatus), default: JobStatus.NEW, index: true })
  status!: JobStatus;

  @Prop({ default: 0, min: 0 })
  current!: number;

  @Prop({ default: 0, min: 0 })
  total!: number;

  @Prop({ default: 0, min: 0, max: 100 })
  progress!: number;

  /** Why the job failed or was canceled. */
  @Prop()
  reason?: string;

  @Prop()
  startedAt?: Date;

  @Prop()
  finishedAt?: Date;

  /** Bumped on every write: updates are compare-and-set on (status, revision) so concurrent steps are never lost. */
  @Prop({ default: 0 })
  revision!: number;

  /** The instance whose handler runs the job; absent for jobs driven only through the bean. */
  @Prop()
  leaseOwner?: string;

  /**
   * Until when the job counts as alive: every write moves it `JOB_LEASE_MS` ahead and the owner renews it while its
   * handler runs. Once it passed unrenewed the job is failed (at any instance's start, and periodically if owned).
   */
  @Prop()
  leaseUntil?: Date;

  createdAt!: Date;
  updatedAt!: Date;
}

export type JobDocument = HydratedDocument<Job>;
export const JobSchema = SchemaFactory.createForClass(Job);
/** The default order of job searches, newest first. */
JobSchema.index({ createdAt: -1 });
/** The sweep of expired leases. */
JobSchema.index({ status: 1, leaseUntil: 1 });

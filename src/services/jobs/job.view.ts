import { Types } from 'mongoose';
import { JobStatus } from './job-lifecycle';
import { Job } from './job.schema';

/** A job as stored (lean). */
export type StoredJob = Job & { _id: Types.ObjectId };

/** A job as the API returns it. */
export interface JobView {
  id: string;
  type: string;
  description: string;
  status: JobStatus;
  current: number;
  total: number;
  progress: number;
  reason: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** `searchJobs` answer: one page of jobs and the number of all matches. */
export interface JobSearchResponse {
  items: JobView[];
  total: number;
}

export function toView(job: StoredJob): JobView {
  return {
    id: job._id.toString(),
    type: job.type,
    description: job.description ?? '',
    status: job.status,
    current: job.current,
    total: job.total,
    progress: job.progress,
    reason: job.reason ?? null,
    startedAt: job.startedAt ?? null,
    finishedAt: job.finishedAt ?? null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

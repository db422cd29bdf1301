import { ConflictException } from '@nestjs/common';

export enum JobStatus {
  NEW = 'NEW',
  IN_PROGRESS = 'IN_PROGRESS',
  DONE = 'DONE',
  FAILED = 'FAILED',
  CANCELED = 'CANCELED',
}

export const UNFINISHED_STATUSES: readonly JobStatus[] = [JobStatus.NEW, JobStatus.IN_PROGRESS];

const NEXT: Record<JobStatus, readonly JobStatus[]> = {
  [JobStatus.NEW]: [JobStatus.IN_PROGRESS, JobStatus.FAILED, JobStatus.CANCELED],
  [JobStatus.IN_PROGRESS]: [JobStatus.DONE, JobStatus.FAILED, JobStatus.CANCELED],
  [JobStatus.DONE]: [],
  [JobStatus.FAILED]: [],
  [JobStatus.CANCELED]: [],
};

export function isFinished(status: JobStatus): boolean {
  return !UNFINISHED_STATUSES.includes(status);
}

/** Throws 409 unless `from → to` is a lifecycle edge; staying in an unfinished status is allowed. */
export function assertTransition(jobId: string, from: JobStatus, to: JobStatus): void {
  if (isFinished(from)) {
    throw new ConflictException(`Job ${jobId} is already ${from} and cannot be changed`);
  }
  if (from !== to && !NEXT[from].includes(to)) {
    throw new ConflictException(`Job ${jobId} cannot move from ${from} to ${to}`);
  }
}

/**
 * `round(100·current/total)`. A job with total 0 has no countable steps: its progress is whatever
 * `updateProgress` last set (kept as `previous`) until `toDone` sets 100.
 */
export function progressOf(current: number, total: number, previous: number): number {
  return total > 0 ? Math.round((100 * current) / total) : previous;
}

import { PipelineStage } from 'mongoose';
import { JobStatus } from './job-lifecycle';

/**
 * One step as an update pipeline, so that concurrent steps are each a single atomic write with no retries:
 * `current` moves by `step` within `0..total`; `progress` becomes `round(100·current/total)` (as `progressOf`,
 * written `floor(x + 0.5)` because `$round` rounds half to even), or stays when total is 0; a NEW job starts; the
 * job's lease moves to `leaseUntil`.
 */
export function stepUpdate(step: number, now: Date, leaseUntil: Date): PipelineStage.Set[] {
  const percent = { $divide: [{ $multiply: ['$current', 100] }, '$total'] };
  return [
    { $set: { current: { $min: [{ $max: [{ $add: ['$current', step] }, 0] }, '$total'] } } },
    {
      $set: {
        progress: { $cond: [{ $gt: ['$total', 0] }, { $floor: { $add: [percent, 0.5] } }, '$progress'] },
        status: JobStatus.IN_PROGRESS,
        startedAt: { $ifNull: ['$startedAt', now] },
        revision: { $add: ['$revision', 1] },
        updatedAt: now,
        leaseUntil,
      },
    },
  ];
}

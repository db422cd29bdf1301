import { ConflictException } from '@nestjs/common';
import { assertTransition, JobStatus, progressOf } from './job-lifecycle';

const { NEW, IN_PROGRESS, DONE, FAILED, CANCELED } = JobStatus;

describe('job lifecycle', () => {
  describe('assertTransition', () => {
    it.each([
      [NEW, IN_PROGRESS],
      [NEW, FAILED],
      [NEW, CANCELED],
      [IN_PROGRESS, DONE],
      [IN_PROGRESS, FAILED],
      [IN_PROGRESS, CANCELED],
      [IN_PROGRESS, IN_PROGRESS],
    ])('should allow %s → %s', (from, to) => {
      expect(() => assertTransition('j', from, to)).not.toThrow();
    });

    it.each([
      [NEW, DONE],
      [IN_PROGRESS, NEW],
      ...[DONE, FAILED, CANCELED].flatMap((from) => Object.values(JobStatus).map((to) => [from, to])),
    ])('should refuse %s → %s with a conflict', (from, to) => {
      expect(() => assertTransition('j', from, to)).toThrow(ConflictException);
    });
  });

  describe('progressOf', () => {
    it('should round 100·current/total', () => {
      expect(progressOf(1, 3, 0)).toBe(33);
      expect(progressOf(2, 3, 0)).toBe(67);
      expect(progressOf(3, 3, 0)).toBe(100);
    });

    it('should keep the previous progress when total is 0', () => {
      expect(progressOf(0, 0, 42)).toBe(42);
    });
  });
});

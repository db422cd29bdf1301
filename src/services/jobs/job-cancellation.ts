import { Injectable } from '@nestjs/common';

/**
 * In-process cancellation signals of the jobs this process is running. A cancel made here reaches the work at
 * once; a cancel made by another instance reaches it at its next step, whose compare-and-set update fails.
 */
@Injectable()
export class JobCancellation {
  private readonly running = new Map<string, AbortController>();

  register(jobId: string): AbortSignal {
    const controller = new AbortController();
    this.running.set(jobId, controller);
    return controller.signal;
  }

  abort(jobId: string, reason: string): void {
    this.running.get(jobId)?.abort(new JobCanceledError(jobId, reason));
  }

  release(jobId: string): void {
    this.running.delete(jobId);
  }
}

/** Thrown into running work once its job is canceled, removed or otherwise finished by someone else. */
export class JobCanceledError extends Error {
  constructor(
    readonly jobId: string,
    reason: string,
  ) {
    super(`Job ${jobId} stopped: ${reason}`);
    this.name = JobCanceledError.name;
  }
}

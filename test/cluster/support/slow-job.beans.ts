import { Module } from '@nestjs/common';
import { Bean, Exposed } from '../../../src/bean';
import { Role } from '../../../src/common/principal';
import { JobRunner } from '../../../src/services/jobs/job-runner';
import { JobsModule } from '../../../src/services/jobs/jobs.module';

/** A job with a real handler taking one step every 100 ms: still running when its process is killed. */
@Bean('slowJob', Role.ADMIN)
export class SlowJobService {
  constructor(private readonly runner: JobRunner) {}

  @Exposed(['int'])
  async start(steps: number) {
    const { job } = await this.runner.start('slow', steps, async (handle) => {
      for (let i = 0; i < steps; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await handle.step();
      }
    });
    return job;
  }
}

@Module({ imports: [JobsModule], providers: [SlowJobService] })
export class SlowJobModule {}

import { Client } from '@stomp/stompjs';
import { getConnectionToken } from '@nestjs/mongoose';
import { Connection, Types } from 'mongoose';
import { Role } from '../../src/common/principal';
import { JobHandle, JobRunner } from '../../src/services/jobs/job-runner';
import { startTestApp, TestApp } from '../support/test-app';
import { connectStomp, subscribe } from './stomp-events';

const BEAN = 'jobsManagementServiceImpl';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe(JobRunner.name, () => {
  let t: TestApp;
  let admin: string;
  let runner: JobRunner;
  let stomp: Client;

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
    runner = t.app.get(JobRunner);
    stomp = await connectStomp(t.url, admin);
  });

  afterAll(async () => {
    await stomp.deactivate();
    await t.stop();
  });

  /** Work that takes `steps` steps, pausing before step `pauseAt` until `resume` resolves. */
  function pausingWork(steps: number, pauseAt: number) {
    const paused = deferred();
    const resume = deferred();
    const done: number[] = [];
    const work = async (job: JobHandle) => {
      for (let i = 0; i < steps; i++) {
        if (i === pauseAt) {
          paused.resolve();
          await resume.promise;
        }
        await job.step();
        done.push(i);
      }
    };
    return { work, paused: paused.promise, resume: resume.resolve, done };
  }

  it('should publish every progress event of a running job, in order, on both topics', async () => {
    const { work, resume } = pausingWork(5, 0);
    const { job, finished } = await runner.start('report', 5, work);
    const own = await subscribe(stomp, `/topic/job/${job.id}`);
    const all = await subscribe(stomp, '/topic/jobs');
    resume();

    expect(await finished).toMatchObject({ status: 'DONE', current: 5, progress: 100 });
    const expected = [
      ...[1, 2, 3, 4, 5].map((current) => ['job.updated', job.id, 'IN_PROGRESS', current, current * 20]),
      ['job.updated', job.id, 'DONE', 5, 100],
    ];
    const summary = (e: { event: string; id: string; data: any }) => [
      e.event,
      e.id,
      e.data.status,
      e.data.current,
      e.data.progress,
    ];
    expect((await own.waitFor(6)).map(summary)).toEqual(expected);
    await all.waitFor(6);
    expect(all.events.filter((e) => e.id === job.id).map(summary)).toEqual(expected);
  });

  it('should not deliver job events to a USER', async () => {
    const user = await connectStomp(t.url, t.tokenFor(Role.USER));
    const received: string[] = [];
    try {
      user.subscribe('/topic/jobs', (message) => received.push(message.body));
      const admins = await subscribe(stomp, '/topic/jobs');
      const final = await runner.run('report', 2, async (handle) => {
        await handle.step(2);
      });
      await admins.waitFor(2);
      expect(final).toMatchObject({ status: 'DONE' });
      expect(received).toEqual([]);
    } finally {
      await user.deactivate();
    }
  });

  it('should stop the work at its next step once the job is canceled through the gateway', async () => {
    const { work, paused, resume, done } = pausingWork(10, 3);
    const { job, finished } = await runner.start('sitemap', 10, work);
    await paused;

    const res = await t.callBean(BEAN, 'cancelJob', [job.id], { token: admin });
    expect(res.status).toBe(200);
    resume();

    expect(await finished).toMatchObject({ status: 'CANCELED', current: 3, reason: expect.any(String) });
    expect(done).toEqual([0, 1, 2]);
  });

  it('should let the work see a cancel through its signal at once', async () => {
    const seen: boolean[] = [];
    const { job, finished } = await runner.start('poll', 0, async (handle) => {
      await new Promise<void>((resolve) => handle.signal.addEventListener('abort', () => resolve()));
      seen.push(handle.signal.aborted);
      handle.throwIfCanceled();
    });
    await t.callBean(BEAN, 'toCanceled', [job.id], { token: admin });
    expect(await finished).toMatchObject({ status: 'CANCELED' });
    expect(seen).toEqual([true]);
  });

  it('should stop the work when another instance cancels the job in the database', async () => {
    const { work, paused, resume, done } = pausingWork(4, 1);
    const { job, finished } = await runner.start('import', 4, work);
    await paused;

    const jobs = t.app.get<Connection>(getConnectionToken()).collection('jobs');
    await jobs.updateOne({ _id: new Types.ObjectId(job.id) }, { $set: { status: 'CANCELED' }, $inc: { revision: 1 } });
    resume();

    expect(await finished).toMatchObject({ status: 'CANCELED', current: 1 });
    expect(done).toEqual([0]);
  });

  it('should record a failure with its reason', async () => {
    const { job, finished } = await runner.start('export', 5, async (handle) => {
      await handle.step(2);
      throw new Error('disk full');
    });
    expect(job.status).toBe('IN_PROGRESS');
    expect(await finished).toMatchObject({ status: 'FAILED', current: 2, progress: 40, reason: 'disk full' });
  });

  it('should report progress set directly for work without countable steps', async () => {
    const final = await runner.run('crawl', 0, async (handle) => {
      await handle.progress(50);
    });
    expect(final).toMatchObject({ status: 'DONE', progress: 100 });
  });

  it('should stop the work and resolve null when the job is removed', async () => {
    const { work, paused, resume, done } = pausingWork(3, 1);
    const { job, finished } = await runner.start('cleanup', 3, work);
    await paused;
    await t.callBean(BEAN, 'removeJobAndClean', [job.id], { token: admin });
    resume();
    expect(await finished).toBeNull();
    expect(done).toEqual([0]);
  });

  it('should leave running jobs alone when unfinished jobs are failed', async () => {
    const { work, paused, resume } = pausingWork(2, 1);
    const { job, finished } = await runner.start('long', 2, work);
    const orphan = (await t.callBean(BEAN, 'startJob', ['orphan', 2], { token: admin })).body;
    await paused;

    await t.callBean(BEAN, 'setUnfinishedJobsToFailed', [], { token: admin });
    resume();

    expect(await finished).toMatchObject({ id: job.id, status: 'DONE' });
    const found = await t.callBean(BEAN, 'searchJobs', [{ query: { type: 'orphan' } }], { token: admin });
    expect(found.body.items).toEqual([expect.objectContaining({ id: orphan.id, status: 'FAILED' })]);
  });
});

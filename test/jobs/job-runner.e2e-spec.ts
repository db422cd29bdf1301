import { getConnectionToken } from '@nestjs/mongoose';
import { Connection, Types } from 'mongoose';
import { Role } from '../../src/common/principal';
import { JobHandle, JobRunner } from '../../src/services/jobs/job-runner';
import { startTestApp, TestApp } from '../support/test-app';
import { TestStompClient } from '../realtime/stomp-client';

interface LiveEvent {
  event: string;
  id: string;
  data: { status: string; current: number; progress: number } | null;
}

const BEAN = 'jobsManagementServiceImpl';
const REPLIES = '/user/topic/default/json';
/** Short, so that a test outlasts a lease; the runner renews its jobs' leases every third of it. */
const LEASE_MS = 600;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe(JobRunner.name, () => {
  let t: TestApp;
  let admin: string;
  let runner: JobRunner;
  let stomp: TestStompClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { JOB_LEASE_MS: String(LEASE_MS) } });
    admin = t.tokenFor(Role.ADMIN);
    runner = t.app.get(JobRunner);
    stomp = await TestStompClient.connect(t.url, { token: admin });
    await stomp.subscribe('/topic/jobs');
  });

  afterAll(async () => {
    await stomp.disconnect();
    await t.stop();
  });

  /** The next `count` events on `destination` (that `accept` takes), in arrival order. */
  async function events(destination: string, count: number, accept?: (e: LiveEvent) => boolean): Promise<LiveEvent[]> {
    const received: LiveEvent[] = [];
    while (received.length < count) received.push(await stomp.next<LiveEvent>(destination, accept));
    return received;
  }

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
    await stomp.subscribe(`/topic/job/${job.id}`);
    resume();

    expect(await finished).toMatchObject({ status: 'DONE', current: 5, progress: 100 });
    const expected = [
      ...[1, 2, 3, 4, 5].map((current) => ['job.updated', job.id, 'IN_PROGRESS', current, current * 20]),
      ['job.updated', job.id, 'DONE', 5, 100],
    ];
    const summary = (e: LiveEvent) => [e.event, e.id, e.data?.status, e.data?.current, e.data?.progress];
    expect((await events(`/topic/job/${job.id}`, 6)).map(summary)).toEqual(expected);
    const withStart = [['job.updated', job.id, 'IN_PROGRESS', 0, 0], ...expected];
    expect((await events('/topic/jobs', 7, (e) => e.id === job.id)).map(summary)).toEqual(withStart);
  });

  it('should refuse a USER subscription to job events', async () => {
    const user = await TestStompClient.connect(t.url, { token: t.tokenFor(Role.USER) });
    try {
      await user.subscribe(REPLIES);
      user.client.subscribe('/topic/jobs', () => undefined, { receipt: 'user-jobs' });
      expect(await user.next(REPLIES)).toMatchObject({ actionId: 'user-jobs', status: 403, error: 'Access denied' });
      const job = await runner.run('report', 1, (handle) => handle.step().then(() => undefined));
      await events('/topic/jobs', 2, (e) => e.id === job?.id);
      expect(user.messages('/topic/jobs')).toEqual([]);
    } finally {
      await user.disconnect();
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

  it('should stop the work, resolve null and publish the removal when the job is removed', async () => {
    const { work, paused, resume, done } = pausingWork(3, 1);
    const { job, finished } = await runner.start('cleanup', 3, work);
    await paused;
    await t.callBean(BEAN, 'removeJobAndClean', [job.id], { token: admin });
    resume();
    expect(await finished).toBeNull();
    expect(done).toEqual([0]);
    const removal = await stomp.next<LiveEvent>('/topic/jobs', (e) => e.id === job.id && e.event === 'job.removed');
    expect(removal.data).toBeNull();
  });

  it('should keep renewing the lease of running work, and fail only jobs whose lease expired', async () => {
    const { work, paused, resume } = pausingWork(2, 1);
    const { job, finished } = await runner.start('long', 2, work);
    const orphan = (await t.callBean(BEAN, 'startJob', ['orphan', 2], { token: admin })).body;
    await paused;
    // Longer than a lease: the orphan's lapses, the running job's is renewed meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_MS));

    await t.callBean(BEAN, 'setUnfinishedJobsToFailed', [], { token: admin });
    resume();

    expect(await finished).toMatchObject({ id: job.id, status: 'DONE' });
    const found = await t.callBean(BEAN, 'searchJobs', [{ query: { type: 'orphan' } }], { token: admin });
    expect(found.body.items).toEqual([expect.objectContaining({ id: orphan.id, status: 'FAILED' })]);
  });
});

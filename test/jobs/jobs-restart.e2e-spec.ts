import { EmbeddedMongoServer } from '@ccb/embedded-mongo';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Role } from '../../src/common/principal';
import { INTERRUPTED_REASON } from '../../src/services/jobs/jobs.service';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'jobsManagementServiceImpl';
const LEASE_MS = 500;

describe('jobs after a restart', () => {
  let dbPath: string;

  beforeAll(() => {
    dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-restart-'));
  });

  afterAll(() => {
    fs.rmSync(dbPath, { recursive: true, force: true });
  });

  /** The app on a database kept in `dbPath`, both started afresh like a restarted process. */
  async function startProcess(env: Record<string, string> = {}): Promise<{ app: TestApp; stop(): Promise<void> }> {
    const db = await EmbeddedMongoServer.start({ port: 0, host: '127.0.0.1', dbPath });
    const app = await startTestApp({ env: { MONGODB_URI: db.uri, ...env } });
    return {
      app,
      stop: async () => {
        await app.stop();
        await db.stop();
      },
    };
  }

  it('should mark jobs left NEW or IN_PROGRESS as FAILED once their lease expired, and leave finished ones alone', async () => {
    const first = await startProcess({ JOB_LEASE_MS: String(LEASE_MS) });
    const call = (fn: string, ...args: unknown[]) =>
      first.app.callBean(BEAN, fn, args, { token: first.app.tokenFor(Role.ADMIN) }).then((res) => res.body);
    const fresh = await call('createJob', { type: 'queued' });
    const running = await call('startJob', 'import', 4);
    await call('incrementJob', running.id, 1);
    const done = await call('toDone', (await call('startJob', 'export', 1)).id);
    await first.stop();
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 200));

    const second = await startProcess();
    try {
      const res = await second.app.callBean(BEAN, 'searchJobs', [{ limit: 10 }], {
        token: second.app.tokenFor(Role.ADMIN),
      });
      const byId = new Map(res.body.items.map((job: { id: string }) => [job.id, job]));
      const interrupted = { status: 'FAILED', reason: INTERRUPTED_REASON, finishedAt: expect.any(String) };
      expect(byId.get(fresh.id)).toMatchObject(interrupted);
      expect(byId.get(running.id)).toMatchObject({ ...interrupted, current: 1, progress: 25 });
      expect(byId.get(done.id)).toMatchObject({ status: 'DONE', reason: null, finishedAt: done.finishedAt });
    } finally {
      await second.stop();
    }
  });
});

describe('jobs whose lease has not expired at a restart', () => {
  it('should be left unfinished by the starting process', async () => {
    const db = await EmbeddedMongoServer.start({ port: 0, host: '127.0.0.1', dbPath: undefined });
    const first = await startTestApp({ env: { MONGODB_URI: db.uri } });
    const second = await startTestApp({ env: { MONGODB_URI: db.uri } });
    try {
      const token = first.tokenFor(Role.ADMIN);
      const running = (await first.callBean(BEAN, 'startJob', ['import', 4], { token }).expect(200)).body;
      await first.stop();
      await second.callBean(BEAN, 'setUnfinishedJobsToFailed', [], { token: second.tokenFor(Role.ADMIN) }).expect(200);
      const res = await second.callBean(BEAN, 'searchJobs', [{ limit: 10 }], { token: second.tokenFor(Role.ADMIN) });
      expect(res.body.items).toEqual([expect.objectContaining({ id: running.id, status: 'IN_PROGRESS' })]);
    } finally {
      await second.stop();
      await db.stop();
    }
  });
});

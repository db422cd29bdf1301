import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'jobsManagementServiceImpl';

interface Job {
  id: string;
  type: string;
  status: string;
  current: number;
  total: number;
  progress: number;
  reason: string | null;
}

describe('jobsManagementServiceImpl', () => {
  let t: TestApp;
  let admin: string;

  const call = (fn: string, args: unknown[], token: string | null = admin) =>
    t.callBean(BEAN, fn, args, { token: token ?? undefined });
  const ok = async (fn: string, ...args: unknown[]) => {
    const res = await call(fn, args);
    expect({ fn, status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body as Job;
  };
  const refused = async (status: number, fn: string, ...args: unknown[]) => {
    const res = await call(fn, args);
    expect({ fn, status: res.status }).toEqual({ fn, status });
    return res.body as { error: string; message: string };
  };
  const started = (total = 10) => ok('startJob', 'import', total);
  const created = () => ok('createJob', { type: 'export' });

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
  });

  afterAll(async () => {
    await t.stop();
  });

  describe('creating', () => {
    it('should start a job IN_PROGRESS at 0', async () => {
      const job = await started(4);
      expect(job).toMatchObject({ type: 'import', status: 'IN_PROGRESS', current: 0, total: 4, progress: 0 });
    });

    it('should create a NEW job with the defaults current/total/progress 0', async () => {
      const job = await ok('createJob', { type: 'export', description: 'CSV export' });
      expect(job).toMatchObject({ status: 'NEW', current: 0, total: 0, progress: 0, description: 'CSV export' });
    });

    it('should accept indexed arguments and integer strings', async () => {
      const res = await call('startJob', [{ 0: 'import', 1: '7' }]);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(7);
    });

    it('should derive progress from current/total', async () => {
      expect(await ok('createJob', { type: 'x', current: 1, total: 3, progress: 90 })).toMatchObject({ progress: 33 });
    });

    it('should refuse a finished status, current above total and a missing type', async () => {
      await refused(400, 'createJob', { type: 'x', status: 'DONE' });
      await refused(400, 'createJob', { type: 'x', current: 5, total: 2 });
      await refused(400, 'createJob', { description: 'no type' });
      await refused(400, 'createJob', { type: 'x', progress: 101 });
    });
  });

  describe('transitions', () => {
    it('should move NEW → IN_PROGRESS on the first step', async () => {
      const job = await ok('saveJob', { ...(await created()), total: 4 });
      expect(await ok('incrementJob', job.id, 1)).toMatchObject({ status: 'IN_PROGRESS', current: 1, progress: 25 });
    });

    it('should move NEW → IN_PROGRESS through saveJob', async () => {
      const job = await created();
      expect(await ok('saveJob', { ...job, status: 'IN_PROGRESS' })).toMatchObject({ status: 'IN_PROGRESS' });
    });

    it('should move IN_PROGRESS → DONE with progress 100 and current = total', async () => {
      const job = await started(8);
      expect(await ok('toDone', job.id)).toMatchObject({ status: 'DONE', current: 8, progress: 100 });
    });

    it('should move IN_PROGRESS → DONE through saveJob, completing the saved total', async () => {
      const job = await started(4);
      const done = await ok('saveJob', { ...job, total: 6, current: 2, status: 'DONE' });
      expect(done).toMatchObject({ status: 'DONE', total: 6, current: 6, progress: 100 });
    });

    it('should move IN_PROGRESS → FAILED with a reason', async () => {
      const job = await started();
      expect(await ok('toFailed', job.id)).toMatchObject({ status: 'FAILED', reason: expect.any(String) });
    });

    it('should move IN_PROGRESS → CANCELED by toCanceled and by cancelJob', async () => {
      expect(await ok('toCanceled', (await started()).id)).toMatchObject({ status: 'CANCELED' });
      const job = await started();
      expect((await call('cancelJob', [job.id])).body).toBeNull();
      expect(await searchOne(job.id)).toMatchObject({ status: 'CANCELED' });
    });

    it('should let a NEW job be canceled or failed', async () => {
      expect(await ok('toCanceled', (await created()).id)).toMatchObject({ status: 'CANCELED' });
      expect(await ok('toFailed', (await created()).id)).toMatchObject({ status: 'FAILED' });
    });

    it('should treat a repeated cancelJob as done', async () => {
      const job = await started();
      await ok('cancelJob', job.id);
      await ok('cancelJob', job.id);
    });
  });

  describe('illegal transitions', () => {
    it('should refuse NEW → DONE with 409', async () => {
      const body = await refused(409, 'toDone', (await created()).id);
      expect(body.error).toBe('Conflict');
    });

    it.each(['toDone', 'toFailed', 'toCanceled'])('should refuse changes to a job finished by %s', async (finish) => {
      const job = await started();
      await ok(finish, job.id);
      await refused(409, 'toDone', job.id);
      await refused(409, 'toFailed', job.id);
      await refused(409, 'toCanceled', job.id);
      await refused(409, 'incrementJob', job.id, 1);
      await refused(409, 'decrementJob', job.id, 1);
      await refused(409, 'updateProgress', job.id, 5);
      await refused(409, 'saveJob', { ...job, status: 'IN_PROGRESS' });
    });

    it('should refuse cancelJob on a DONE job', async () => {
      const job = await started();
      await ok('toDone', job.id);
      await refused(409, 'cancelJob', job.id);
    });

    it('should refuse IN_PROGRESS → NEW through saveJob', async () => {
      await refused(409, 'saveJob', { ...(await started()), status: 'NEW' });
    });
  });

  describe('progress arithmetic', () => {
    it('should clamp steps past either end', async () => {
      const job = await started(5);
      expect(await ok('incrementJob', job.id, 3)).toMatchObject({ current: 3, progress: 60 });
      expect(await ok('incrementJob', job.id, 9)).toMatchObject({ current: 5, progress: 100, status: 'IN_PROGRESS' });
      expect(await ok('decrementJob', job.id, 2)).toMatchObject({ current: 3, progress: 60 });
      expect(await ok('decrementJob', job.id, 99)).toMatchObject({ current: 0, progress: 0 });
    });

    it('should round to whole percents', async () => {
      const job = await started(3);
      expect(await ok('incrementJob', job.id, 1)).toMatchObject({ progress: 33 });
      expect(await ok('incrementJob', job.id, 1)).toMatchObject({ progress: 67 });
    });

    it('should round halves up, as round() does', async () => {
      const job = await started(8);
      expect(await ok('incrementJob', job.id, 1)).toMatchObject({ progress: 13 });
      expect(await ok('incrementJob', job.id, 1)).toMatchObject({ progress: 25 });
      expect(await ok('incrementJob', job.id, 1)).toMatchObject({ progress: 38 });
    });

    it('should keep current 0 and the set progress when total is 0', async () => {
      const job = await started(0);
      expect(await ok('incrementJob', job.id, 4)).toMatchObject({ current: 0, progress: 0 });
      expect(await ok('updateProgress', job.id, 40)).toMatchObject({ current: 0, progress: 40 });
      expect(await ok('incrementJob', job.id, 1)).toMatchObject({ current: 0, progress: 40 });
      expect(await ok('toDone', job.id)).toMatchObject({ progress: 100 });
    });

    it('should set progress within 0..100 and refuse values outside', async () => {
      const job = await started(10);
      expect(await ok('updateProgress', job.id, 0)).toMatchObject({ progress: 0 });
      expect(await ok('updateProgress', job.id, 100)).toMatchObject({ progress: 100 });
      await refused(400, 'updateProgress', job.id, 101);
      await refused(400, 'updateProgress', job.id, -1);
    });

    it('should refuse negative steps and a negative total', async () => {
      const job = await started(10);
      await refused(400, 'incrementJob', job.id, -1);
      await refused(400, 'decrementJob', job.id, -1);
      await refused(400, 'startJob', 'import', -3);
    });

    it('should not lose concurrent increments', async () => {
      const job = await started(100);
      const results = await Promise.all(Array.from({ length: 25 }, () => call('incrementJob', [job.id, 2])));
      expect(results.map((res) => res.status)).toEqual(Array(25).fill(200));
      expect(await searchOne(job.id)).toMatchObject({ current: 50, progress: 50 });
    });
  });

  describe('not found', () => {
    it.each(['toDone', 'cancelJob', 'removeJobAndClean'])('should answer 404 from %s for an unknown id', async (fn) => {
      await refused(404, fn, '65f000000000000000000000');
      await refused(404, fn, 'not-an-id');
    });

    it('should answer 404 from incrementJob for an unknown id', async () => {
      await refused(404, 'incrementJob', '65f000000000000000000000', 1);
    });
  });

  describe('searching and removing', () => {
    it('should find jobs by a literal term and report the total', async () => {
      await ok('createJob', { type: 'search-me', description: 'price (a+b)*' });
      await ok('createJob', { type: 'search-me', description: 'price ab' });
      const res = await call('searchJobs', [{ searchTerm: '(a+b)*' }]);
      expect(res.body).toMatchObject({ total: 1, items: [{ description: 'price (a+b)*' }] });
    });

    it('should filter by query fields and page the items', async () => {
      for (let i = 0; i < 3; i++) await ok('createJob', { type: 'paged' });
      const res = await call('searchJobs', [{ query: { type: 'paged', status: 'NEW' }, limit: 2, page: 1 }]);
      expect(res.body.total).toBe(3);
      expect(res.body.items).toHaveLength(1);
    });

    it('should refuse operators in the query and unknown fields', async () => {
      expect((await call('searchJobs', [{ query: { status: { $ne: 'DONE' } } }])).status).toBe(400);
      expect((await call('searchJobs', [{ query: { $where: 'true' } }])).status).toBe(400);
      expect((await call('searchJobs', [{ query: { secret: 'x' } }])).status).toBe(400);
      expect((await call('searchJobs', ['not a map'])).status).toBe(400);
    });

    it('should remove jobs by ids, ignoring unknown ones', async () => {
      const [a, b] = [await created(), await created()];
      expect((await call('removeJobsByIds', [[a.id, b.id, '65f000000000000000000000']])).status).toBe(200);
      expect(await searchOne(a.id)).toBeUndefined();
      expect(await searchOne(b.id)).toBeUndefined();
    });

    it('should remove one job', async () => {
      const job = await started();
      await ok('removeJobAndClean', job.id);
      await refused(404, 'toDone', job.id);
    });

    it('should describe its repository', async () => {
      expect(await ok('getRepository')).toMatchObject({ repository: 'JobRepository', collection: 'jobs' });
    });
  });

  describe('bad input', () => {
    it('should refuse wrong argument types', async () => {
      await refused(400, 'startJob', 'import', 'ten');
      await refused(400, 'startJob', 'import', 1.5);
      await refused(400, 'incrementJob', 'x', true);
      await refused(400, 'createJob', 'not a map');
      await refused(400, 'createJob', { type: 'x', total: 'many' });
      await refused(400, 'createJob', { type: 'x', status: 'PAUSED' });
      await refused(400, 'createJob', JSON.parse('{"type": "x", "__proto__": {"admin": true}}'));
      await refused(400, 'removeJobsByIds', 'x');
    });
  });

  describe('access', () => {
    it('should refuse a USER with 403 and no token with 401', async () => {
      const user = t.tokenFor(Role.USER);
      const forbidden = await call('startJob', ['import', 1], user);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error).toBe('Access denied');
      expect((await call('startJob', ['import', 1], null)).status).toBe(401);
    });
  });

  async function searchOne(id: string): Promise<Job | undefined> {
    const res = await call('searchJobs', [{ limit: 200, sortName: 'createdAt', sortDirection: 'DESC' }]);
    return (res.body.items as Job[]).find((job) => job.id === id);
  }
});

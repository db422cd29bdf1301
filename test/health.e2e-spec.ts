import { EmbeddedMongoServer } from '@ccb/embedded-mongo';
import { startTestApp, TestApp } from './support/test-app';

describe('Health', () => {
  describe('with the database up', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp();
    });

    afterAll(async () => {
      await t.stop();
    });

    it('should report liveness without checking dependencies', async () => {
      const res = await t.http.get('/api/v1/health/live').expect(200);
      expect(res.body).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
    });

    it.each(['/api/v1/health', '/api/v1/health/ready'])(
      'should report readiness with a database ping at %s',
      async (path) => {
        const res = await t.http.get(path).expect(200);
        expect(res.body.status).toBe('ok');
        expect(res.body.info.database).toEqual({ status: 'up', latencyMs: expect.any(Number) });
      },
    );

    it('should need no token', async () => {
      await t.http.get('/api/v1/health').set('Cookie', 'nothing=here').expect(200);
    });
  });

  describe('with the database down', () => {
    let db: EmbeddedMongoServer;
    let t: TestApp;

    beforeAll(async () => {
      db = await EmbeddedMongoServer.start({ port: 0, host: '127.0.0.1', dbPath: undefined });
      t = await startTestApp({ env: { MONGODB_URI: `${db.uri.replace(/\/$/, '')}/health-test` } });
      await t.http.get('/api/v1/health/ready').expect(200);
      await db.stop();
    });

    afterAll(async () => {
      await t.stop();
    });

    it('should answer readiness with 503 in the error shape, naming the database', async () => {
      const res = await t.http.get('/api/v1/health/ready').expect(503);
      expect(res.body).toMatchObject({
        error: 'Service Unavailable',
        status: 503,
        message: 'Not ready: database down',
        path: '/api/v1/health/ready',
        details: [{ field: 'database', message: expect.stringMatching(/^down: /) }],
      });
      await t.http.get('/api/v1/health').expect(503);
    });

    it('should stay live', async () => {
      await t.http.get('/api/v1/health/live').expect(200);
    });
  });

  describe('with Redis configured but unreachable', () => {
    let t: TestApp;

    beforeAll(async () => {
      // Port 1 on loopback: nothing listens there, so every connection is refused at once.
      t = await startTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    });

    afterAll(async () => {
      await t.stop();
    });

    // Redis holds only counters: the instance answers every call without it, so it stays ready, degraded
    it('should stay ready and report Redis degraded', async () => {
      const res = await t.http.get('/api/v1/health').expect(200);
      expect(res.body).toMatchObject({
        status: 'ok',
        info: { redis: { status: 'up', degraded: expect.stringMatching(/^unreachable \(.+\): rate limits counted/) } },
      });
    });

    it('should answer bean calls and logins meanwhile', async () => {
      await t.callBean('profileSearchServiceImpl', 'getRepository', []).expect(200);
      await t.http.post('/api/v1/auth/token').send({ username: 'nobody', password: 'wrong-password' }).expect(401);
    });
  });
});

import { EmbeddedMongoServer } from '@ccb/embedded-mongo';
import request from 'supertest';
import { UserAccounts } from '../../src/auth/users/user-accounts';
import { productionEnvironment } from '../support/production-env';
import { startTestApp, TestApp } from '../support/test-app';
import { createAccount } from './support/accounts';

const sessionCookieOf = (response: request.Response) =>
  ([] as string[]).concat(response.headers['set-cookie'] ?? [])[0].split(';')[0];

const login = (t: TestApp, username: string, password: string) =>
  request(t.url).post('/api/v1/auth/token').send({ username, password });

describe('Accounts', () => {
  describe('the admin created at first start', () => {
    let db: EmbeddedMongoServer;

    beforeAll(async () => {
      db = await EmbeddedMongoServer.start({ port: 0, host: '127.0.0.1' });
    });

    afterAll(async () => {
      await db.stop();
    });

    it('should be created from ADMIN_USERNAME/ADMIN_PASSWORD once, and left alone on later starts', async () => {
      const first = await startTestApp({
        env: { MONGODB_URI: `${db.uri}/seed`, ADMIN_USERNAME: 'Boss', ADMIN_PASSWORD: 'first-password' },
      });
      try {
        const response = await login(first, 'boss', 'first-password').expect(200);
        expect((await request(first.url).post('/api/v1/auth/validate-token').send(response.body)).body).toMatchObject({
          role: 'ADMIN',
        });
      } finally {
        await first.stop();
      }
      const second = await startTestApp({
        env: { MONGODB_URI: `${db.uri}/seed`, ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'second-password' },
      });
      try {
        await login(second, 'boss', 'first-password').expect(200);
        await login(second, 'boss', 'second-password').expect(401);
      } finally {
        await second.stop();
      }
    });
  });

  describe('expiry and lockout windows', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ env: { SESSION_TTL: '1s', AUTH_LOCKOUT_TTL: '1s', AUTH_LOCKOUT_THRESHOLD: '2' } });
    });

    afterAll(async () => {
      await t.stop();
    });

    /** An ADMIN bean: 403 for a USER's session, 401 for a guest. */
    const tokenBeanWith = (cookie: string) =>
      request(t.url)
        .post('/api/v1/bean/request')
        .set({ 'Lang-Context': 'en', 'Site-Context': 'default', Cookie: cookie })
        .send({ beanId: 'tokenServiceImpl', functionName: 'getVerificationToken', args: ['x'] });

    it('should end a session after SESSION_TTL', async () => {
      const account = await createAccount(t);
      const response = await request(t.url)
        .post('/api/v1/authenticate')
        .send({ username: account.username, password: account.password })
        .expect(200);
      const cookie = sessionCookieOf(response);
      expect((await tokenBeanWith(cookie)).status).toBe(403);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect((await tokenBeanWith(cookie)).status).toBe(401);
    });

    it('should lift a lockout after AUTH_LOCKOUT_TTL', async () => {
      const account = await createAccount(t);
      await login(t, account.username, 'guess').expect(401);
      await login(t, account.username, 'guess').expect(401);
      await login(t, account.username, account.password).expect(429);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await login(t, account.username, account.password).expect(200);
    });

    it('should treat the session of a disabled account as a guest', async () => {
      const account = await createAccount(t);
      const response = await request(t.url)
        .post('/api/v1/authenticate')
        .send({ username: account.username, password: account.password })
        .expect(200);
      await t.app.get(UserAccounts).setDisabled(account.user.id, true);
      expect((await tokenBeanWith(sessionCookieOf(response))).status).toBe(401);
    });
  });

  describe('in production', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ env: productionEnvironment('a-long-production-password') });
    });

    afterAll(async () => {
      await t.stop();
    });

    it('should mark the session cookie Secure', async () => {
      const response = await request(t.url)
        .post('/api/v1/authenticate')
        .send({ username: 'admin', password: 'a-long-production-password' })
        .expect(200);
      expect(([] as string[]).concat(response.headers['set-cookie'] ?? [])[0]).toMatch(/;\s*Secure/);
    });
  });
});

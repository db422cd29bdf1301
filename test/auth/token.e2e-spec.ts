import { JwtService } from '@nestjs/jwt';
import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { User } from '../../src/auth/users/user.schema';
import { randomUUID } from 'node:crypto';
import { Role } from '../../src/common/principal';
import { UserAccounts } from '../../src/auth/users/user-accounts';
import { startTestApp, TestApp } from '../support/test-app';
import { createAccount, loginToken } from './support/accounts';
import { claimsOf, forgeJwt } from './support/jwt-forge';

const ADMIN_PASSWORD = 'admin-password-for-tests';

describe('Access tokens', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { ADMIN_PASSWORD } });
  });

  afterAll(async () => {
    await t.stop();
  });

  const validate = async (token: string) =>
    (await t.http.post('/api/v1/auth/validate-token').send({ token }).expect(200)).body;
  const dummyTree = (token: string) => t.callBean('dummyTree', 'getElements', [], { token });
  /** A GUEST bean: any valid token passes, any invalid token is a 401. */
  const guestBean = (token: string) => t.callBean('profileSearchServiceImpl', 'getRepository', [], { token });

  describe('POST /api/v1/auth/token', () => {
    it('should issue an HS256 JWT with sub, username, role, iat, exp and jti for the seeded admin', async () => {
      const before = Date.now();
      const response = await t.http
        .post('/api/v1/auth/token')
        .send({ username: 'admin', password: ADMIN_PASSWORD })
        .expect(200);
      const { token, expires } = response.body as { token: string; expires: number };
      const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { alg: string };
      const claims = claimsOf(token);
      expect(header.alg).toBe('HS256');
      expect(claims).toMatchObject({ username: 'admin', role: 'ADMIN' });
      expect(claims).toEqual(
        expect.objectContaining({ sub: expect.any(String), jti: expect.any(String), iat: expect.any(Number) }),
      );
      expect(expires).toBe((claims.exp as number) * 1000);
      expect(expires - before).toBeGreaterThan(3590_000);
      expect(expires - before).toBeLessThanOrEqual(3601_000);
      expect((await dummyTree(token)).status).toBe(200);
    });

    it('should give a new jti to every token', async () => {
      const account = await createAccount(t);
      const [first, second] = [await loginToken(t, account), await loginToken(t, account)];
      expect(claimsOf(first).jti).not.toBe(claimsOf(second).jti);
    });

    it('should answer unknown users and wrong passwords alike, in similar time', async () => {
      const account = await createAccount(t);
      const timed = async (username: string) => {
        const started = process.hrtime.bigint();
        const response = await t.http.post('/api/v1/auth/token').send({ username, password: 'wrong-password' });
        return {
          status: response.status,
          message: (response.body as { message: string }).message,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        };
      };
      await timed(account.username);
      const wrongPassword = await timed(account.username);
      const unknownUser = await timed('nobody-by-this-name');
      expect(wrongPassword.status).toBe(401);
      expect(unknownUser).toMatchObject({ status: 401, message: wrongPassword.message });
      expect(unknownUser.ms).toBeGreaterThan(wrongPassword.ms / 3);
    });

    it('should refuse the password of a disabled account with the same 401', async () => {
      const account = await createAccount(t);
      await t.app.get(UserAccounts).setDisabled(account.user.id, true);
      const response = await t.http
        .post('/api/v1/auth/token')
        .send({ username: account.username, password: account.password })
        .expect(401);
      expect(response.body).toMatchObject({
        error: 'Unauthorized',
        message: 'Bad credentials',
        status: 401,
        path: '/api/v1/auth/token',
      });
    });

    it('should answer a malformed stored password hash with a 500 without internals, not as a wrong password', async () => {
      const account = await createAccount(t);
      await t.app
        .get<Model<User>>(getModelToken(User.name))
        .updateOne({ _id: account.user._id }, { passwordHash: 'not-a-hash' });
      const response = await t.http
        .post('/api/v1/auth/token')
        .send({ username: account.username, password: account.password })
        .expect(500);
      expect(response.body).toEqual({
        code: 'INTERNAL_ERROR',
        error: 'Internal Server Error',
        message: 'Internal server error',
        status: 500,
        path: '/api/v1/auth/token',
        timestamp: expect.any(String),
        requestId: expect.any(String),
      });
      expect(response.body.requestId).toBe(response.headers['x-request-id']);
    });

    it.each([
      ['an operator as username', { username: { $ne: null }, password: 'x' }],
      ['an operator as password', { username: 'admin', password: { $gt: '' } }],
      ['a missing password', { username: 'admin' }],
      ['a number as username', { username: 42, password: 'x' }],
    ])('should refuse %s with 400 and field details', async (_, body) => {
      const response = await t.http.post('/api/v1/auth/token').send(body).expect(400);
      expect(response.body).toMatchObject({ error: 'Bad Request', status: 400, details: expect.any(Array) });
    });
  });

  describe('POST /api/v1/auth/validate-token', () => {
    it('should report a valid token with its username, role and expiry', async () => {
      const account = await createAccount(t);
      const token = await loginToken(t, account);
      expect(await validate(token)).toEqual({
        valid: true,
        username: account.username,
        role: 'USER',
        expires: (claimsOf(token).exp as number) * 1000,
      });
    });

    it('should report garbage as invalid with a reason', async () => {
      expect(await validate('not-a-jwt')).toEqual({ valid: false, reason: expect.any(String) });
    });
  });

  describe('attacks on tokens', () => {
    let account: Awaited<ReturnType<typeof createAccount>>;
    let claims: Record<string, unknown>;

    beforeAll(async () => {
      account = await createAccount(t);
      claims = claimsOf(await loginToken(t, account));
    });

    const expectRefused = async (token: string) => {
      expect(await validate(token)).toMatchObject({ valid: false });
      const response = await guestBean(token);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ error: 'Unauthorized', status: 401 });
    };

    it('should refuse alg: none', async () => {
      await expectRefused(forgeJwt({ alg: 'none', typ: 'JWT' }, { ...claims, role: 'ADMIN' }));
    });

    it('should refuse a wrong signature', async () => {
      await expectRefused(forgeJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'some-other-secret-of-enough-length'));
    });

    it('should refuse a tampered role claim', async () => {
      const token = await loginToken(t, account);
      const [header, , signature] = token.split('.');
      const payload = Buffer.from(JSON.stringify({ ...claimsOf(token), role: 'ADMIN' })).toString('base64url');
      await expectRefused(`${header}.${payload}.${signature}`);
    });

    it('should refuse an expired token', async () => {
      const now = Math.floor(Date.now() / 1000);
      await expectRefused(
        forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 7200, exp: now - 3600 }, t.config.jwtSecret),
      );
    });

    it('should refuse a token that claims a role its account does not have', async () => {
      await expectRefused(forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, role: 'ADMIN' }, t.config.jwtSecret));
    });

    it('should refuse the token of a disabled account', async () => {
      const victim = await createAccount(t);
      const token = await loginToken(t, victim);
      expect((await guestBean(token)).status).toBe(200);
      await t.app.get(UserAccounts).setDisabled(victim.user.id, true);
      await expectRefused(token);
    });

    it('should refuse the token of a deleted account', async () => {
      const victim = await createAccount(t);
      const token = await loginToken(t, victim);
      expect((await guestBean(token)).status).toBe(200);
      await t.app.get(UserAccounts).delete(victim.user.id);
      await expectRefused(token);
    });

    it.each([
      ['no account id', 'service-account'],
      ['an account id nobody has', '0123456789abcdef01234567'],
    ])('should refuse a validly signed ADMIN token whose subject is %s', async (_, sub) => {
      const token = t.app.get(JwtService).sign({ sub, username: 'ghost', role: Role.ADMIN, jti: randomUUID() });
      await expectRefused(token);
    });

    it('should refuse a token issued before the password was changed', async () => {
      const victim = await createAccount(t);
      const token = await loginToken(t, victim);
      await t.app.get(UserAccounts).setPassword(victim.user.id, 'a-brand-new-password');
      await expectRefused(token);
    });

    it('should refuse a malformed Authorization header', async () => {
      const response = await t
        .callBean('profileSearchServiceImpl', 'getRepository', [])
        .set('Authorization', 'Basic abc');
      expect(response.status).toBe(401);
    });
  });

  describe('role checks with real tokens', () => {
    it('should give a USER token 403 "Access denied" on an ADMIN bean', async () => {
      const token = await loginToken(t, await createAccount(t, { role: Role.USER }));
      const response = await t.callBean('tokenServiceImpl', 'getVerificationToken', ['x'], { token });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: 'Access denied', status: 403 });
    });
  });
});

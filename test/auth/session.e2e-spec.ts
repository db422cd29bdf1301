import request from 'supertest';
import { Role } from '../../src/common/principal';
import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { RevokedToken } from '../../src/auth/revocation/revoked-token.schema';
import { startTestApp, TestApp } from '../support/test-app';
import { createAccount, loginToken } from './support/accounts';
import { claimsOf } from './support/jwt-forge';

/** The `SESSION=...` pair and the attributes of the session cookie a response sets. */
function sessionCookie(response: request.Response): { pair: string; attributes: string } {
  const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const cookie = cookies.find((value) => value.startsWith('SESSION='));
  if (!cookie) throw new Error('no SESSION cookie set');
  const [pair, ...attributes] = cookie.split(';').map((part) => part.trim());
  return { pair, attributes: attributes.join('; ') };
}

describe('Sessions and logout', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.stop();
  });

  const authenticate = (body: object, cookie?: string) => {
    const call = request(t.url).post('/api/v1/authenticate');
    if (cookie) call.set('Cookie', cookie);
    return call.send(body);
  };
  const adminBean = (cookie: string) =>
    request(t.url)
      .post('/api/v1/bean/request')
      .set({ 'Lang-Context': 'en', 'Site-Context': 'default', Cookie: cookie })
      .send({ beanId: 'dummyTree', functionName: 'getElements', args: [] });

  describe('POST /api/v1/authenticate', () => {
    it('should answer username and role and set an HttpOnly, SameSite=Lax session cookie (not Secure outside production)', async () => {
      const account = await createAccount(t);
      const response = await authenticate({ username: account.username, password: account.password }).expect(200);
      expect(response.body).toEqual({ username: account.username, role: 'USER' });
      const { pair, attributes } = sessionCookie(response);
      expect(pair).toMatch(/^SESSION=[A-Za-z0-9_-]{43}$/);
      expect(attributes).toContain('HttpOnly');
      expect(attributes).toContain('SameSite=Lax');
      expect(attributes).toContain('Path=/');
      expect(attributes).not.toContain('Secure');
      expect(attributes).not.toContain('Expires');
    });

    it('should make the cookie long-lived with rememberMe', async () => {
      const account = await createAccount(t);
      const response = await authenticate({
        username: account.username,
        password: account.password,
        rememberMe: true,
      }).expect(200);
      const expires = /Expires=([^;]+)/.exec(sessionCookie(response).attributes)?.[1];
      expect(Date.parse(expires ?? '') - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    });

    it('should authenticate bean calls with the session cookie like a bearer token', async () => {
      const admin = await createAccount(t, { role: Role.ADMIN });
      const user = await createAccount(t);
      const adminCookie = sessionCookie(
        await authenticate({ username: admin.username, password: admin.password }),
      ).pair;
      const userCookie = sessionCookie(await authenticate({ username: user.username, password: user.password })).pair;
      expect((await adminBean(adminCookie)).status).toBe(200);
      expect((await adminBean(userCookie)).body).toMatchObject({ status: 403, error: 'Access denied' });
      expect((await adminBean('SESSION=forged-session-id')).status).toBe(401);
    });

    it('should refuse bad credentials with 401 and set no cookie', async () => {
      const account = await createAccount(t);
      const response = await authenticate({ username: account.username, password: 'wrong' }).expect(401);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('should refuse a non-boolean rememberMe with 400', async () => {
      await authenticate({ username: 'a', password: 'b', rememberMe: 'yes' }).expect(400);
    });

    it('should issue a new session id at login and end the one presented (no session fixation)', async () => {
      const account = await createAccount(t, { role: Role.ADMIN });
      const credentials = { username: account.username, password: account.password };
      const first = sessionCookie(await authenticate(credentials)).pair;
      const second = sessionCookie(await authenticate(credentials, first)).pair;
      expect(second).not.toBe(first);
      expect((await adminBean(first)).status).toBe(401);
      expect((await adminBean(second)).status).toBe(200);
    });

    it('should not adopt a session id chosen by an attacker', async () => {
      const account = await createAccount(t, { role: Role.ADMIN });
      const planted = 'SESSION=attacker-chosen-value';
      const issued = sessionCookie(
        await authenticate({ username: account.username, password: account.password }, planted),
      ).pair;
      expect(issued).not.toBe(planted);
      expect((await adminBean(planted)).status).toBe(401);
    });
  });

  describe('POST /api/v1/logout', () => {
    it('should end the session and clear its cookie', async () => {
      const account = await createAccount(t, { role: Role.ADMIN });
      const cookie = sessionCookie(await authenticate({ username: account.username, password: account.password })).pair;
      const response = await request(t.url)
        .post('/api/v1/logout')
        .set('Cookie', cookie)
        .send({ role: 'admin' })
        .expect(200);
      expect(response.body).toEqual({ loggedOut: true, role: 'admin' });
      expect(sessionCookie(response).pair).toBe('SESSION=');
      expect((await adminBean(cookie)).status).toBe(401);
    });

    it('should revoke the presented JWT at once, and record the revocation until the token expires', async () => {
      const account = await createAccount(t, { role: Role.ADMIN });
      const token = await loginToken(t, account);
      const other = await loginToken(t, account);
      await request(t.url)
        .post('/api/v1/logout')
        .set('Authorization', `Bearer ${token}`)
        .send({ role: 'user' })
        .expect(200);
      const refused = await t.callBean('dummyTree', 'getElements', [], { token });
      expect(refused.status).toBe(401);
      expect((await t.http.post('/api/v1/auth/validate-token').send({ token })).body).toEqual({
        valid: false,
        reason: 'Token revoked',
      });
      expect((await t.callBean('dummyTree', 'getElements', [], { token: other })).status).toBe(200);
      const { jti, exp } = claimsOf(token) as { jti: string; exp: number };
      const stored = await t.app.get<Model<RevokedToken>>(getModelToken(RevokedToken.name)).findById(jti).lean();
      expect(stored?.expiresAt.getTime()).toBe(exp * 1000);
    });

    it('should answer 200 without a session or token, as a guest whatever role is claimed', async () => {
      const { body } = await request(t.url).post('/api/v1/logout?role=admin').send({ role: 'admin' }).expect(200);
      expect(body).toEqual({ loggedOut: true, role: 'guest' });
    });

    it('should answer the role of the verified token, not the one the caller sends', async () => {
      const account = await createAccount(t, { role: Role.USER });
      const token = await loginToken(t, account);
      const { body } = await request(t.url)
        .post('/api/v1/logout?role=admin')
        .set('Authorization', `Bearer ${token}`)
        .send({ role: 'admin' })
        .expect(200);
      expect(body).toEqual({ loggedOut: true, role: 'user' });
    });

    it("should answer the role of the session's account, not the one the caller sends", async () => {
      const account = await createAccount(t, { role: Role.ADMIN });
      const cookie = sessionCookie(await authenticate({ username: account.username, password: account.password })).pair;
      const { body } = await request(t.url)
        .post('/api/v1/logout')
        .set('Cookie', cookie)
        .send({ role: 'user' })
        .expect(200);
      expect(body).toEqual({ loggedOut: true, role: 'admin' });
    });

    it('should refuse a role other than user or admin with 400', async () => {
      await request(t.url).post('/api/v1/logout').send({ role: 'root' }).expect(400);
      await request(t.url).post('/api/v1/logout').send({}).expect(400);
    });
  });
});

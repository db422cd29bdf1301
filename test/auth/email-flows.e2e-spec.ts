import { JwtService } from '@nestjs/jwt';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';
import { createAccount, loginToken } from './support/accounts';
import { SmtpInbox } from './support/smtp-inbox';

/** The mail is written after the answer: waits (up to 5 s) for `probe` to find it. */
async function eventually<T>(probe: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 250; attempt++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('Nothing arrived');
}

describe('E-mail flows', () => {
  describe('with AUTH_EMAIL_FLOWS=true and an SMTP server', () => {
    let t: TestApp;
    let inbox: SmtpInbox;
    let admin: string;

    beforeAll(async () => {
      inbox = new SmtpInbox();
      const smtpUrl = await inbox.start();
      t = await startTestApp({ env: { AUTH_EMAIL_FLOWS: 'true', SMTP_URL: smtpUrl, MAIL_FROM: 'shop@example.com' } });
      admin = await loginToken(t, await createAccount(t, { role: Role.ADMIN }));
    });

    afterAll(async () => {
      await t.stop();
      await inbox.stop();
    });

    const post = (path: string, body: object, token?: string) => {
      const call = request(t.url).post(`/api/v1/auth/${path}`);
      if (token) call.set('Authorization', `Bearer ${token}`);
      return call.send(body);
    };
    const login = (username: string, password: string) =>
      request(t.url).post('/api/v1/auth/token').send({ username, password });
    /** `token` signed again with `iat` the current second: as if issued in the same second as what just happened. */
    const stampedNow = (token: string): string => {
      const { sub, username, role, jti, ver } = t.app.get(JwtService).decode<Record<string, unknown>>(token);
      return t.app.get(JwtService).sign({ sub, username, role, jti, ver, iat: Math.floor(Date.now() / 1000) });
    };
    const tokenBean = (fn: string, args: string[]) => t.callBean('tokenServiceImpl', fn, args, { token: admin });

    describe('register and verify', () => {
      it('should create an unverified USER, mail a token, and let the user in once verified', async () => {
        const created = await post('register', {
          username: 'Rosa',
          email: 'Rosa@Example.com',
          password: 'rosa-password',
        }).expect(201);
        expect(created.body).toEqual({ username: 'rosa', verified: false });
        const token = await inbox.tokenSentTo('rosa@example.com');
        expect((await login('rosa', 'rosa-password')).body).toMatchObject({
          status: 401,
          message: 'E-mail address not verified',
        });

        await post('verify', { token }).expect(200, { verified: true });
        const session = await login('rosa', 'rosa-password').expect(200);
        expect(session.body).toEqual({ token: expect.any(String), expires: expect.any(Number) });
      });

      it('should accept a verification token once only', async () => {
        await post('register', { username: 'once', email: 'once@example.com', password: 'once-password' }).expect(201);
        const token = await inbox.tokenSentTo('once@example.com');
        await post('verify', { token }).expect(200);
        const again = await post('verify', { token }).expect(400);
        expect(again.body).toMatchObject({ error: 'Bad Request', message: 'Invalid, expired or already used token' });
      });

      it('should answer a taken username or address like a free one, and tell the owner by mail instead', async () => {
        const owner = { username: 'Taken', email: 'taken@example.com', password: 'taken-password' };
        const free = await post('register', owner);
        expect(free.status).toBe(201);
        await post('verify', { token: await inbox.tokenSentTo('taken@example.com') }).expect(200);

        const attempts = [
          { username: 'TAKEN', email: 'newcomer-1@example.com', password: 'another-password' },
          { username: 'newcomer-2', email: 'Taken@Example.com', password: 'another-password' },
        ];
        for (const attempt of attempts) {
          const response = await post('register', attempt);
          expect(response.status).toBe(free.status);
          expect(response.body).toEqual({ username: attempt.username.toLowerCase(), verified: false });
          const notice = await inbox.mailTo('taken@example.com');
          expect(notice).toContain('Subject: Someone tried to register with your account details');
          expect(notice).not.toMatch(/token: /);
        }
        expect(free.body).toEqual({ username: 'taken', verified: false });
        await login('taken', 'taken-password').expect(200);
        await login('taken', 'another-password').expect(401);
        await login('newcomer-2', 'another-password').expect(401);
        expect(inbox.messages.filter((message) => message.to.some((to) => to.startsWith('newcomer-')))).toEqual([]);
      });

      it('should validate the registration with field details', async () => {
        const response = await post('register', { username: 'x', email: 'not-an-address', password: 'short' }).expect(
          400,
        );
        const fields = (response.body as { details: { field: string }[] }).details.map((detail) => detail.field);
        expect(new Set(fields)).toEqual(new Set(['username', 'email', 'password']));
      });
    });

    describe('tokenServiceImpl', () => {
      it('should find a live verification token, also by its owner, and nothing once used', async () => {
        await post('register', { username: 'lookup', email: 'lookup@example.com', password: 'lookup-password' }).expect(
          201,
        );
        const token = await inbox.tokenSentTo('lookup@example.com');
        const found = await tokenBean('getVerificationToken', [token]).expect(200);
        expect(found.body).toEqual({
          id: expect.any(String),
          token,
          username: 'lookup',
          expiryDate: expect.any(String),
        });
        expect(Date.parse((found.body as { expiryDate: string }).expiryDate) - Date.now()).toBeGreaterThan(
          23 * 3600 * 1000,
        );
        expect((await tokenBean('getVerificationToken', [token, 'lookup'])).body).toMatchObject({ username: 'lookup' });
        expect((await tokenBean('getVerificationToken', [token, 'someone-else'])).body).toBeNull();
        expect((await tokenBean('getPasswordResetToken', [token])).body).toBeNull();

        await post('verify', { token }).expect(200);
        expect((await tokenBean('getVerificationToken', [token])).body).toBeNull();
      });

      it('should find a live password-reset token with both overloads', async () => {
        const account = await createAccount(t);
        await post('reset-password', { email: `${account.username}@example.com` }).expect(200);
        const token = await inbox.tokenSentTo(`${account.username}@example.com`);
        expect((await tokenBean('getPasswordResetToken', [token])).body).toMatchObject({
          token,
          username: account.username,
        });
        expect((await tokenBean('getPasswordResetToken', [token, account.username])).body).toMatchObject({ token });
        expect((await tokenBean('getPasswordResetToken', ['unknown-token'])).body).toBeNull();
      });

      it('should refuse guests (401) and users (403)', async () => {
        expect((await t.callBean('tokenServiceImpl', 'getVerificationToken', ['x'])).status).toBe(401);
        const user = await loginToken(t, await createAccount(t));
        const refused = await t.callBean('tokenServiceImpl', 'getPasswordResetToken', ['x', 'y'], { token: user });
        expect(refused.body).toMatchObject({ status: 403, error: 'Access denied' });
      });
    });

    describe('reset and save password', () => {
      it('should answer 200 alike for registered and unknown addresses, mailing only the registered one', async () => {
        const account = await createAccount(t);
        const known = await post('reset-password', { email: `${account.username}@example.com` }).expect(200);
        const unknown = await post('reset-password', { email: 'nobody@example.com' }).expect(200);
        expect(unknown.body).toEqual(known.body);
        await inbox.tokenSentTo(`${account.username}@example.com`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(inbox.messages.some((message) => message.to.includes('nobody@example.com'))).toBe(false);
      });

      it('should set the new password from the mailed token, once, and end old tokens', async () => {
        const account = await createAccount(t);
        const oldToken = await loginToken(t, account);
        await post('reset-password', { email: `${account.username}@example.com` }).expect(200);
        const token = await inbox.tokenSentTo(`${account.username}@example.com`);
        const tokenJustBefore = await loginToken(t, account);

        await post('save-password', { token, password: 'the-new-password' }).expect(200, { passwordChanged: true });
        // Issued before the reset but stamped with the reset's very second: whole-second `iat` cannot tell it apart.
        const sameSecond = stampedNow(tokenJustBefore);
        await post('save-password', { token, password: 'another-password' }).expect(400);
        await login(account.username, account.password).expect(401);
        const { body: fresh } = await login(account.username, 'the-new-password').expect(200);
        const validate = (token: string) => t.http.post('/api/v1/auth/validate-token').send({ token }).expect(200);
        for (const old of [oldToken, tokenJustBefore, sameSecond]) {
          expect((await validate(old)).body).toEqual({ valid: false, reason: 'Token revoked' });
        }
        const { body: valid } = await validate(fresh.token);
        expect(valid).toMatchObject({ valid: true, username: account.username });
      });

      it('should refuse a made-up reset token and a short password', async () => {
        await post('save-password', { token: 'made-up', password: 'long-enough-password' }).expect(400);
        await post('save-password', { token: 'made-up', password: 'short' }).expect(400);
      });
    });

    describe('change password', () => {
      it('should change the password of the logged-in user after checking the old one', async () => {
        const account = await createAccount(t);
        const token = await loginToken(t, account);
        await post('change-password', { oldPassword: 'wrong', newPassword: 'changed-password' }, token).expect(401);
        await post('change-password', { oldPassword: account.password, newPassword: 'changed-password' }, token).expect(
          200,
          {
            passwordChanged: true,
          },
        );
        await login(account.username, 'changed-password').expect(200);
      });

      it('should need a logged-in user', async () => {
        await post('change-password', { oldPassword: 'x', newPassword: 'changed-password' }).expect(401);
      });
    });
  });

  describe('with AUTH_EMAIL_FLOWS=true and no SMTP server (development default)', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ env: { AUTH_EMAIL_FLOWS: 'true' } });
    });

    afterAll(async () => {
      await t.stop();
    });

    it('should write the mail as a file to DATA_DIR/outbox', async () => {
      await request(t.url)
        .post('/api/v1/auth/register')
        .send({ username: 'filed', email: 'filed@example.com', password: 'filed-password' })
        .expect(201);
      const outbox = join(t.config.dataDir, 'outbox');
      const file = await eventually(() => (existsSync(outbox) ? readdirSync(outbox)[0] : undefined));
      const message = readFileSync(join(outbox, file), 'utf8');
      expect(file).toMatch(/\.eml$/);
      expect(message).toContain('To: filed@example.com');
      expect(message).toMatch(/token: [A-Za-z0-9_-]{43}/);
    });
  });

  describe('with AUTH_EMAIL_FLOWS off (the default)', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp();
    });

    afterAll(async () => {
      await t.stop();
    });

    it.each(['register', 'verify', 'reset-password', 'save-password', 'change-password'])(
      'should answer 404 for %s',
      async (path) => {
        const response = await request(t.url).post(`/api/v1/auth/${path}`).send({}).expect(404);
        expect(response.body).toMatchObject({ error: 'Not Found', status: 404 });
      },
    );
  });
});

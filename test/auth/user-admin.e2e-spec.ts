import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { UserAccounts } from '../../src/auth/users/user-accounts';
import { Role } from '../../src/common/principal';
import { RawStompSocket } from '../realtime/raw-stomp-socket';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'userManagementServiceImpl';

interface UserView {
  id: string;
  username: string;
  email: string;
  role: Role;
  verified: boolean;
  disabled: boolean;
}

interface Page<T> {
  content: T[];
  totalElements: number;
  size: number;
  number: number;
}

/** User management through the bean, as an operator does it; accounts made through the API and logged in with it. */
describe('userManagementServiceImpl', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    // Live sessions are otherwise checked once a minute: a session that ends within seconds was ended by the change.
    t = await startTestApp({ env: { STOMP_REVERIFY_MS: '600000' } });
    admin = t.tokenFor(Role.ADMIN);
  });

  afterAll(async () => {
    await t.stop();
  });

  const call = (fn: string, args: unknown[], token = admin) => t.callBean(BEAN, fn, args, { token });

  async function createUser(overrides: Record<string, unknown> = {}, token = admin) {
    const username = `u-${randomUUID().slice(0, 8)}`;
    const body = { username, email: `${username}@shop.test`, password: `pw-${randomUUID()}`, ...overrides };
    const created = await call('createUser', [body], token).expect(200);
    return { user: created.body as UserView, password: body.password };
  }

  async function login(username: string, password: string): Promise<string> {
    const answer = await t.http.post('/api/v1/auth/token').send({ username, password }).expect(200);
    return (answer.body as { token: string }).token;
  }

  /** A call a USER may make: accepted while the token works, 401 once it does not. */
  const ownInvoices = (token: string) =>
    request(t.url).get('/api/v1/invoices/mine').set('Authorization', `Bearer ${token}`);

  describe('createUser', () => {
    it('should make a verified account that logs in, without its password hash in the answer', async () => {
      const { user, password } = await createUser({ username: 'Mixed.Case-1' });
      expect(user).toMatchObject({ username: 'mixed.case-1', role: Role.USER, verified: true, disabled: false });
      expect(Object.keys(user).sort()).toEqual(
        ['createdAt', 'disabled', 'email', 'id', 'role', 'username', 'verified'].sort(),
      );
      await ownInvoices(await login('mixed.case-1', password)).expect(200);
    });

    it('should create an ADMIN only when asked to', async () => {
      const { user, password } = await createUser({ role: Role.ADMIN });
      expect(user.role).toBe(Role.ADMIN);
      await call('listUsers', [{}], await login(user.username, password)).expect(200);
    });

    it('should answer 409 for a taken username or e-mail address', async () => {
      const { user } = await createUser();
      await call('createUser', [
        { username: user.username, email: 'other@shop.test', password: 'long-enough-1' },
      ]).expect(409);
      await call('createUser', [{ username: 'someone-else', email: user.email, password: 'long-enough-1' }]).expect(
        409,
      );
    });

    it.each([
      ['a username with a space', { username: 'a b' }, 'username'],
      ['a username of 2 characters', { username: 'ab' }, 'username'],
      ['an operator object as username', { username: { $ne: null } }, 'username'],
      ['a malformed e-mail', { email: 'not-mail' }, 'email'],
      ['a short password', { password: 'short' }, 'password'],
      ['the GUEST role', { role: Role.GUEST }, 'role'],
      ['an unknown role', { role: 'ROOT' }, 'role'],
    ])('should refuse %s with 400 and the field', async (_, overrides, field) => {
      const body = { username: `u-${randomUUID().slice(0, 8)}`, email: 'x@shop.test', password: 'long-enough-1' };
      const answer = await call('createUser', [{ ...body, ...overrides }]).expect(400);
      expect(answer.body).toMatchObject({ status: 400, error: 'Bad Request', requestId: expect.any(String) });
      expect(answer.body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: `args[0].${field}` })]),
      );
      expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.ts:\d+/);
    });

    it('should not take fields beyond the DTO (no disabled or token version from the caller)', async () => {
      const { user } = await createUser({ disabled: true, tokenVersion: 7, verified: false });
      expect(user).toMatchObject({ disabled: false, verified: true });
    });
  });

  describe('listUsers and getUser', () => {
    it('should find accounts by literal text in username or e-mail, ignoring case, in pages', async () => {
      const tag = randomUUID().slice(0, 6);
      for (const name of ['a', 'b', 'c']) await createUser({ username: `find.${tag}-${name}` });
      const other = await createUser({ username: `findx${tag}-d` });
      const first = await call('listUsers', [{ search: `FIND.${tag}`, size: 2 }]).expect(200);
      const page = first.body as Page<UserView>;
      expect(page).toMatchObject({ totalElements: 3, size: 2, number: 0 });
      expect(page.content.map((u) => u.username)).toEqual([`find.${tag}-a`, `find.${tag}-b`]);
      const second = await call('listUsers', [{ search: `find.${tag}`, size: 2, page: 1 }]).expect(200);
      expect((second.body as Page<UserView>).content.map((u) => u.username)).toEqual([`find.${tag}-c`]);
      const byMail = await call('listUsers', [{ search: other.user.email.toUpperCase() }]).expect(200);
      expect((byMail.body as Page<UserView>).content.map((u) => u.username)).toEqual([`findx${tag}-d`]);
    });

    it('should filter by role and by disabled', async () => {
      const { user } = await createUser();
      await call('disableUser', [user.id]).expect(200);
      const disabled = (await call('listUsers', [{ disabled: true, size: 200 }]).expect(200)).body as Page<UserView>;
      expect(disabled.content.map((u) => u.id)).toContain(user.id);
      expect(disabled.content.every((u) => u.disabled)).toBe(true);
      const admins = (await call('listUsers', [{ role: Role.ADMIN, size: 200 }]).expect(200)).body as Page<UserView>;
      expect(admins.content.length).toBeGreaterThan(0);
      expect(admins.content.every((u) => u.role === Role.ADMIN)).toBe(true);
    });

    it.each([
      ['a regular expression as search text matches nothing', { search: '.*' }, 200],
      ['an operator object as search', { search: { $regex: '.*' } }, 400],
      ['a search of 101 characters', { search: 'x'.repeat(101) }, 400],
      ['size 0', { size: 0 }, 400],
      ['size 201', { size: 201 }, 400],
      ['a negative page', { page: -1 }, 400],
      ['disabled as a string', { disabled: 'true' }, 400],
      ['an unknown role', { role: 'ROOT' }, 400],
    ])('should treat %s', async (_, query, status) => {
      const answer = await call('listUsers', [query]).expect(status);
      if (status === 200) expect((answer.body as Page<UserView>).totalElements).toBe(0);
    });

    it('should answer 404 for an unknown or malformed id', async () => {
      await call('getUser', ['0123456789abcdef01234567']).expect(404);
      await call('getUser', ['not-an-id']).expect(404);
      await call('disableUser', ['not-an-id']).expect(404);
      await call('changeRole', ['0123456789abcdef01234567', Role.USER]).expect(404);
    });
  });

  describe('disableUser and enableUser', () => {
    it('should end the tokens, the session cookie and the live STOMP session of the user at once', async () => {
      const { user, password } = await createUser();
      const token = await login(user.username, password);
      const session = await request(t.url).post('/api/v1/authenticate').send({ username: user.username, password });
      const cookie = ([] as string[]).concat(session.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
      const withCookie = () => request(t.url).get('/api/v1/invoices/mine').set('Cookie', cookie.join('; '));
      await withCookie().expect(200);
      const socket = await RawStompSocket.open(t.url);
      const connected = await socket.connect(`accept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${token}\n`);
      expect(connected.command).toBe('CONNECTED');
      await ownInvoices(token).expect(200);

      const disabled = await call('disableUser', [user.id]).expect(200);
      expect(disabled.body).toMatchObject({ id: user.id, disabled: true });

      await ownInvoices(token).expect(401);
      // Without a live session the cookie makes a guest, and a guest may not list invoices.
      await withCookie().expect(401);
      expect((await socket.next('ERROR')).headers.message).toBe('Token revoked');
      await socket.closed;
      await t.http.post('/api/v1/auth/token').send({ username: user.username, password }).expect(401);

      await call('enableUser', [user.id]).expect(200);
      await ownInvoices(token).expect(401);
      await ownInvoices(await login(user.username, password)).expect(200);
    });

    it('should audit every change with who made it', async () => {
      const { user } = await createUser();
      await call('disableUser', [user.id]).expect(200);
      await call('enableUser', [user.id]).expect(200);
      await call('changeRole', [user.id, Role.ADMIN]).expect(200);
      const trail = await t
        .callBean('auditServiceImpl', 'getAuditTrail', ['user', user.id], { token: admin })
        .expect(200);
      const entries = trail.body as { action: string; actor: { name: string }; details?: Record<string, unknown> }[];
      expect(entries.map((e) => e.action)).toEqual(['user.change-role', 'user.enable', 'user.disable', 'user.create']);
      expect(entries.every((e) => e.actor.name === 'test-admin')).toBe(true);
      expect(entries[0].details).toEqual({ role: Role.ADMIN });
      expect(JSON.stringify(entries)).not.toMatch(/pw-|passwordHash/);
    });

    it('should publish the change on /topic/users to ADMINs', async () => {
      const { user } = await createUser();
      const watcher = await TestStompClient.connect(t.url, { token: admin });
      try {
        await watcher.subscribe('/topic/users');
        await call('disableUser', [user.id]).expect(200);
        const event = await watcher.next('/topic/users', (e) => e.event === 'user.disabled' && e.id === user.id);
        expect(event.data).toMatchObject({ id: user.id, disabled: true });
      } finally {
        await watcher.disconnect();
      }
    });
  });

  describe('changeRole', () => {
    it('should make a USER an ADMIN, whose old token then ends', async () => {
      const { user, password } = await createUser();
      const before = await login(user.username, password);
      await call('listUsers', [{}], before).expect(403);
      await call('changeRole', [user.id, Role.ADMIN]).expect(200);
      await ownInvoices(before).expect(401);
      await call('listUsers', [{}], await login(user.username, password)).expect(200);
    });

    it.each(['GUEST', 'admin', 'ROOT', ''])('should refuse the role %p with 400', async (role) => {
      const { user } = await createUser();
      await call('changeRole', [user.id, role]).expect(400);
    });
  });

  describe('access', () => {
    it.each([
      ['listUsers', [{}]],
      ['getUser', ['0123456789abcdef01234567']],
      ['createUser', [{ username: 'sneaky', email: 'sneaky@shop.test', password: 'long-enough-1' }]],
      ['disableUser', ['0123456789abcdef01234567']],
      ['enableUser', ['0123456789abcdef01234567']],
      ['changeRole', ['0123456789abcdef01234567', 'ADMIN']],
    ])('should refuse %s to a USER (403) and a guest (401)', async (fn, args) => {
      const refused = await call(fn, args, t.tokenFor(Role.USER)).expect(403);
      expect(refused.body).toMatchObject({ error: 'Access denied', status: 403 });
      await t.callBean(BEAN, fn, args).expect(401);
    });

    it('should not let a USER make itself an ADMIN', async () => {
      const { user, password } = await createUser();
      const token = await login(user.username, password);
      await call('changeRole', [user.id, Role.ADMIN], token).expect(403);
      const after = await call('getUser', [user.id]).expect(200);
      expect(after.body).toMatchObject({ role: Role.USER });
    });
  });

  /** Last: it disables every other admin, the harness's own included, and leaves them so. */
  describe('the last enabled admin', () => {
    /** The harness's admin token ends in the first test here; later admins are made by the survivor. */
    let operator: string;
    beforeAll(() => {
      operator = admin;
    });

    async function newAdmin() {
      const { user, password } = await createUser({ role: Role.ADMIN }, operator);
      return { id: user.id, login: () => login(user.username, password) };
    }

    /** Disables every enabled admin but those kept (the seeded `admin` and the harness's among them). */
    async function disableAdminsBut(token: string, ...keep: string[]): Promise<void> {
      const admins = (await call('listUsers', [{ role: Role.ADMIN, disabled: false, size: 200 }], token).expect(200))
        .body as Page<UserView>;
      for (const other of admins.content.filter((a) => !keep.includes(a.id))) {
        await call('disableUser', [other.id], token).expect(200);
      }
    }

    const enabledAdmins = async (token: string) =>
      ((await call('listUsers', [{ role: Role.ADMIN, disabled: false }], token).expect(200)).body as Page<UserView>)
        .totalElements;

    it('can be neither disabled nor demoted (409), also by itself, until another admin is enabled', async () => {
      const last = await newAdmin();
      const token = await last.login();
      await disableAdminsBut(token, last.id);
      const refused = await call('disableUser', [last.id], token).expect(409);
      expect(refused.body).toMatchObject({ status: 409, error: 'Conflict', message: expect.stringMatching(/last/) });
      await call('changeRole', [last.id, Role.USER], token).expect(409);
      expect((await call('getUser', [last.id], token).expect(200)).body).toMatchObject({
        role: Role.ADMIN,
        disabled: false,
      });
      await call('listUsers', [{}], token).expect(200);

      const other = await createUser({ role: Role.USER }, token);
      await call('changeRole', [other.user.id, Role.ADMIN], token).expect(200);
      await call('changeRole', [last.id, Role.USER], token).expect(200);
      operator = await login(other.user.username, other.password);
      expect(await enabledAdmins(operator)).toBe(1);
    });

    it('survives two admins disabling each other at the same moment: one of them stays', async () => {
      const a = await newAdmin();
      const b = await newAdmin();
      await disableAdminsBut(await a.login(), a.id, b.id);
      const [tokenA, tokenB] = [await a.login(), await b.login()];
      const [aDisablesB, bDisablesA] = await Promise.all([
        call('disableUser', [b.id], tokenA),
        call('disableUser', [a.id], tokenB),
      ]);
      // Whichever lands second is refused: 409 (last admin), or 401 when the first has disabled its caller already.
      expect([aDisablesB.status, bDisablesA.status].filter((status) => status === 200).length).toBeLessThanOrEqual(1);
      const survivor = aDisablesB.status === 200 ? a : b;
      expect(await enabledAdmins(await survivor.login())).toBeGreaterThanOrEqual(1);
      operator = await survivor.login();
    });

    it('keeps one when two disablings run in one process at once (the service driven directly)', async () => {
      const a = await newAdmin();
      const b = await newAdmin();
      await disableAdminsBut(await a.login(), a.id, b.id);
      // Both updates are sent before either count is awaited, which is as close as a test gets to interleaving them;
      // whichever order the database applies them in, at least one is undone.
      const outcomes = await Promise.all([
        t.app.get(UserAccounts).changeAccess(a.id, { disabled: true }),
        t.app.get(UserAccounts).changeAccess(b.id, { disabled: true }),
      ]);
      expect(outcomes.map((o) => o.outcome)).toContain('last-admin');
      const left = await Promise.all([a, b].map(async (admin) => (await admin.login().catch(() => null)) !== null));
      expect(left.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    });
  });
});

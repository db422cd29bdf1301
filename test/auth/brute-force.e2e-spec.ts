import { startTestApp, TestApp } from '../support/test-app';
import { createAccount } from './support/accounts';

describe('Brute-force protection', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Client addresses come from X-Forwarded-For, so that one test can speak as several clients.
    const env = { TRUST_PROXY: 'loopback', AUTH_USERNAME_SOFT_LIMIT: '12', AUTH_USERNAME_SLOW_SECONDS: '1' };
    t = await startTestApp({ env });
  });

  afterAll(async () => {
    await t.stop();
  });

  const login = (username: string, password: string, client = '198.51.100.1') =>
    t.http.post('/api/v1/auth/token').set('X-Forwarded-For', client).send({ username, password });

  it('should lock the client out of a username after 5 failures, even for the right password, with 429', async () => {
    const account = await createAccount(t);
    for (let attempt = 0; attempt < 5; attempt++) expect((await login(account.username, 'guess')).status).toBe(401);
    const response = await login(account.username, account.password);
    expect(response.status).toBe(429);
    expect(response.body).toMatchObject({ error: 'Too Many Requests', status: 429, path: '/api/v1/auth/token' });
  });

  it('should treat unknown usernames exactly like existing ones', async () => {
    for (let attempt = 0; attempt < 5; attempt++) expect((await login('no-such-user', 'guess')).status).toBe(401);
    expect((await login('no-such-user', 'guess')).status).toBe(429);
  });

  it('should limit a client to 10 attempts per minute per username, successful ones included', async () => {
    const account = await createAccount(t);
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await login(account.username, account.password)).status).toBe(200);
    expect((await login(account.username, account.password)).status).toBe(429);
  });

  it('should apply the same limits to session logins', async () => {
    const account = await createAccount(t);
    for (let attempt = 0; attempt < 5; attempt++) {
      await t.http.post('/api/v1/authenticate').send({ username: account.username, password: 'guess' }).expect(401);
    }
    await t.http
      .post('/api/v1/authenticate')
      .send({ username: account.username, password: account.password })
      .expect(429);
  });

  it('should leave other usernames of the same client alone', async () => {
    const locked = await createAccount(t);
    const other = await createAccount(t);
    for (let attempt = 0; attempt < 6; attempt++) await login(locked.username, 'guess');
    expect((await login(other.username, other.password)).status).toBe(200);
  });

  it('should not lock the owner out when another client fails their login', async () => {
    const account = await createAccount(t);
    for (let attempt = 0; attempt < 6; attempt++) await login(account.username, 'guess', '203.0.113.66');
    expect((await login(account.username, 'guess', '203.0.113.66')).status).toBe(429);
    expect((await login(account.username, account.password, '192.0.2.10')).status).toBe(200);
  });

  it('should slow a username down when guesses come from many clients, without locking it', async () => {
    const account = await createAccount(t);
    // 3 failures from each of 4 clients: the username-wide soft limit of 12, no client locked out.
    for (let client = 1; client <= 4; client++) {
      for (let attempt = 0; attempt < 3; attempt++) {
        expect((await login(account.username, 'guess', `203.0.113.${client}`)).status).toBe(401);
      }
    }
    const first = await login(account.username, 'guess', '203.0.113.5');
    const second = await login(account.username, account.password, '192.0.2.10');
    expect([first.status, second.status]).toEqual([401, 429]);
    expect(second.body).toMatchObject({ status: 429, error: 'Too Many Requests' });
    await new Promise((resolve) => setTimeout(resolve, 1100)); // AUTH_USERNAME_SLOW_SECONDS: the next slot
    expect((await login(account.username, account.password, '192.0.2.10')).status).toBe(200);
  });
});

import { startTestApp, TestApp } from '../support/test-app';
import { createAccount } from './support/accounts';

describe('Brute-force protection', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.stop();
  });

  const login = (username: string, password: string) => t.http.post('/api/v1/auth/token').send({ username, password });

  it('should lock a username out after 5 failures, even for the right password, with 429', async () => {
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
    for (let attempt = 0; attempt < 10; attempt++) expect((await login(account.username, account.password)).status).toBe(200);
    expect((await login(account.username, account.password)).status).toBe(429);
  });

  it('should apply the same limits to session logins', async () => {
    const account = await createAccount(t);
    for (let attempt = 0; attempt < 5; attempt++) {
      await t.http.post('/api/v1/authenticate').send({ username: account.username, password: 'guess' }).expect(401);
    }
    await t.http.post('/api/v1/authenticate').send({ username: account.username, password: account.password }).expect(429);
  });

  it('should leave other usernames of the same client alone', async () => {
    const locked = await createAccount(t);
    const other = await createAccount(t);
    for (let attempt = 0; attempt < 6; attempt++) await login(locked.username, 'guess');
    expect((await login(other.username, other.password)).status).toBe(200);
  });
});

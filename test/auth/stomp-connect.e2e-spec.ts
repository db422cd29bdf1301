import request from 'supertest';
import { UserAccounts } from '../../src/auth/users/user-accounts';
import { RawStompSocket } from '../realtime/raw-stomp-socket';
import { startTestApp, TestApp } from '../support/test-app';
import { createAccount, loginToken } from './support/accounts';

/** STOMP CONNECT goes through the same TokenVerifier, so identity's checks hold there too. */
describe('Identity checks at STOMP CONNECT', () => {
  let t: TestApp;
  const sockets: RawStompSocket[] = [];

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

  afterAll(async () => {
    await t.stop();
  });

  const connectWith = async (token: string) => {
    const socket = await RawStompSocket.open(t.url);
    sockets.push(socket);
    return socket.connect(`accept-version:1.2\nAuthorization:Bearer ${token}\n`);
  };

  it('should accept a token from auth/token, and refuse it after logout', async () => {
    const account = await createAccount(t);
    const token = await loginToken(t, account);
    expect(await connectWith(token)).toMatchObject({
      command: 'CONNECTED',
      headers: expect.objectContaining({ 'user-name': account.username }),
    });
    await request(t.url)
      .post('/api/v1/logout')
      .set('Authorization', `Bearer ${token}`)
      .send({ role: 'user' })
      .expect(200);
    expect((await connectWith(token)).command).toBe('ERROR');
  });

  it('should refuse the token of a disabled account', async () => {
    const account = await createAccount(t);
    const token = await loginToken(t, account);
    await t.app.get(UserAccounts).setDisabled(account.user.id, true);
    expect((await connectWith(token)).command).toBe('ERROR');
  });
});

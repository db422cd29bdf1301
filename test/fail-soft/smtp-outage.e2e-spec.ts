import request from 'supertest';
import { SmtpInbox } from '../auth/support/smtp-inbox';
import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, TestApp } from '../support/test-app';

/** Issue 25: mail is optional at run time; an SMTP outage costs the mails sent meanwhile, never an answer. */
describe('SMTP outage', () => {
  const inbox = new SmtpInbox();
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    const port = Number(new URL(await inbox.start()).port);
    proxy = await TcpProxy.start({ host: '127.0.0.1', port });
    t = await startTestApp({ env: { AUTH_EMAIL_FLOWS: 'true', SMTP_URL: `smtp://127.0.0.1:${proxy.port}` } });
  });

  afterAll(async () => {
    await t?.stop();
    await proxy?.stop();
    await inbox.stop();
  });

  const register = (username: string) =>
    request(t.url)
      .post('/api/v1/auth/register')
      .send({ username, email: `${username}@example.com`, password: `${username}-password` });

  it('should register while the mail server is unreachable, and mail again once it is back', async () => {
    await proxy.cut();
    const created = await register('during').expect(201);
    expect(created.body).toEqual({ username: 'during', verified: false });
    await request(t.url).get('/api/v1/health').expect(200);

    await proxy.restore();
    await register('after').expect(201);
    expect(await inbox.tokenSentTo('after@example.com')).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import { Connection, Model } from 'mongoose';
import { User } from '../../src/auth/users/user.schema';
import { Role } from '../../src/common/principal';
import { ProbeModule } from '../support/probe.beans';
import { startTestApp, TestApp } from '../support/test-app';
import { RawStompSocket } from './raw-stomp-socket';
import { TestStompClient } from './stomp-client';

type Reply = { actionId?: unknown; status: number; payload?: unknown; error?: string; message?: string };
type Body = Record<string, unknown>;
type ContextOptions = { lang?: string; site?: string };

const USER_REPLIES = '/user/topic/default/json';
const byAction = (actionId: string) => (reply: Reply) => reply.actionId === actionId;
/** What must be equal between the transports; path, timestamp and requestId describe the one request. */
const comparable = ({ status, error, message }: Body) => ({ status, error, message });
/** The DESIGN §3 keys, whatever the transport (a STOMP reply adds its actionId). */
const errorKeys = (body: Body) =>
  Object.keys(body)
    .filter((key) => key !== 'actionId')
    .sort();

/** One STOMP request and its reply, as a client on the user reply topic sees it. */
async function ask(client: TestStompClient, destination: string, body: Body, headers: Record<string, string> = {}) {
  const actionId = `a-${Math.random()}`;
  client.send(destination, { ...body, actionId }, headers);
  return client.nextMessage<Reply>(USER_REPLIES, byAction(actionId));
}

describe('One rule set for REST and STOMP', () => {
  let t: TestApp;
  const clients: TestStompClient[] = [];
  const connect = async (token?: string) => {
    const client = await TestStompClient.connect(t.url, { token });
    clients.push(client);
    await client.subscribe(USER_REPLIES);
    return client;
  };

  beforeAll(async () => (t = await startTestApp({ imports: [ProbeModule], env: { BEAN_RATE_LIMIT: '100000' } })));
  afterEach(async () => Promise.all(clients.splice(0).map((c) => c.disconnect())));
  afterAll(async () => t.stop());

  describe('context headers', () => {
    it.each([
      ['a path as Lang-Context', { lang: '../../x' }],
      ['a malformed Lang-Context', { lang: 'english!' }],
      ['an empty Lang-Context', { lang: '' }],
      ['an unknown Site-Context', { site: 'nowhere' }],
      ['a path as Site-Context', { site: '../x' }],
    ])('should answer %s on a STOMP bean call with the 400 body of REST', async (_, headers: ContextOptions) => {
      const rest = await t.callBean('probe', 'context', [], headers).expect(400);
      const stompHeaders: Record<string, string> = {};
      if (headers.lang !== undefined) stompHeaders['Lang-Context'] = headers.lang;
      if (headers.site !== undefined) stompHeaders['Site-Context'] = headers.site;
      const client = await connect();
      const message = await ask(client, '/request/bean', { beanId: 'probe', functionName: 'context' }, stompHeaders);
      const reply = JSON.parse(message.body) as Body;
      expect(comparable(reply)).toEqual(comparable(rest.body as Body));
      expect(errorKeys(reply)).toEqual(errorKeys(rest.body as Body));
      expect(reply.status).toBe(400);
    });

    it('should refuse a malformed Lang-Context on every STOMP request destination', async () => {
      const admin = await connect(t.tokenFor(Role.ADMIN));
      const find = { collectionName: 'notes', requestType: 'FIND' };
      const message = await ask(admin, '/request/document', find, { 'Lang-Context': '../../x' });
      expect(JSON.parse(message.body)).toMatchObject({ status: 400, message: expect.stringContaining('Lang-Context') });
    });

    it('should give the bean the language of a valid STOMP Lang-Context', async () => {
      const client = await connect();
      const call = { beanId: 'probe', functionName: 'context' };
      const message = await ask(client, '/request/bean', call, { 'Lang-Context': 'de-CH' });
      expect(JSON.parse(message.body)).toMatchObject({ status: 200, payload: { lang: 'de-CH', site: 'default' } });
    });

    it.each([
      ['Lang-Context:../../x', { lang: '../../x' }],
      ['Site-Context:nowhere', { site: 'nowhere' }],
    ])('should refuse CONNECT with %s in an ERROR whose body is the REST 400 body', async (header, headers) => {
      const rest = await t.callBean('probe', 'context', [], headers).expect(400);
      const socket = await RawStompSocket.open(t.url);
      const frame = await socket.connect(`accept-version:1.2\n${header}\n`);
      expect(frame.command).toBe('ERROR');
      expect(frame.headers['content-type']).toBe('application/json');
      const body = JSON.parse(frame.body.toString('utf8')) as Body;
      expect(comparable(body)).toEqual(comparable(rest.body as Body));
      expect(errorKeys(body)).toEqual(errorKeys(rest.body as Body));
      await socket.closed;
    });

    it('should take a valid Lang-Context given at CONNECT as the session language', async () => {
      const client = await TestStompClient.connect(t.url, { headers: { 'Lang-Context': 'fr' } });
      clients.push(client);
      await client.subscribe(USER_REPLIES);
      const message = await ask(client, '/request/bean', { beanId: 'probe', functionName: 'context' });
      expect(JSON.parse(message.body)).toMatchObject({ status: 200, payload: { lang: 'fr' } });
    });
  });

  describe('redaction of raw reads', () => {
    const secrets = ['PH-secret-1', 'RT-secret-2', 'RS-secret-3', 'WS-secret-4', 'AS-secret-5', 'TH-secret-6', 'SS-7'];
    let admin: TestStompClient;
    let database: string;
    let storedPasswordHash: string;

    beforeAll(async () => {
      const connection = t.app.get<Connection>(getConnectionToken());
      database = connection.db!.databaseName;
      const user = await t.app.get<Model<User>>(getModelToken(User.name)).findOne({ username: 'test-admin' }).lean();
      storedPasswordHash = user!.passwordHash;
      await connection.db!.collection('vault').insertOne({
        label: 'vault-entry',
        passwordHash: secrets[0],
        refreshToken: secrets[1],
        resetToken: secrets[2],
        webhookSecret: secrets[3],
        nested: [{ apiSecret: secrets[4], tokenHash: secrets[5] }],
      });
      const site = { _id: 'secret-site', name: 'Secret site', webhookSecret: secrets[6] };
      await connection.db!.collection<typeof site>('sites').insertOne(site);
    });

    beforeEach(async () => {
      admin = await connect(t.tokenFor(Role.ADMIN));
    });

    const payloadOf = async (destination: string, body: Body) => {
      const reply = JSON.parse((await ask(admin, destination, body)).body) as Reply;
      expect(reply.status).toBe(200);
      return JSON.stringify(reply.payload);
    };
    const expectNoSecret = (text: string) => {
      for (const secret of [storedPasswordHash, ...secrets]) expect(text).not.toContain(secret);
    };

    it.each(['users', 'vault'])('should redact %s read by the document storage bean over REST', async (collection) => {
      const args = [database, collection];
      const token = t.tokenFor(Role.ADMIN);
      const res = await t.callBean('documentStorageServiceImpl', 'getCollection', args, { token });
      expect(res.status).toBe(200);
      expect(res.text).toContain(collection === 'users' ? 'test-admin' : 'vault-entry');
      expectNoSecret(res.text);
    });

    it.each(['users', 'vault'])('should redact %s read by the document storage bean over STOMP', async (collection) => {
      const args = [database, collection];
      const call = { beanId: 'documentStorageServiceImpl', functionName: 'getCollection', args };
      const text = await payloadOf('/request/bean', call);
      expect(text).toContain(collection === 'users' ? 'test-admin' : 'vault-entry');
      expectNoSecret(text);
    });

    it.each(['users', 'vault'])('should redact %s read through STOMP /request/document', async (collection) => {
      const text = await payloadOf('/request/document', { collectionName: collection, requestType: 'FIND' });
      expect(text).toContain(collection === 'users' ? 'test-admin' : 'vault-entry');
      expectNoSecret(text);
    });

    it.each([
      ['FIND_ALL', { size: 200 }],
      ['FIND_BY_ID', { id: 'secret-site' }],
    ])('should redact sites read through STOMP /request/repository %s', async (requestType, extra) => {
      const text = await payloadOf('/request/repository', { repositoryId: 'sites', requestType, ...extra });
      expect(text).toContain('Secret site');
      expectNoSecret(text);
    });
  });
});

describe('Rate limits and Retry-After on both transports', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ imports: [ProbeModule], env: { BEAN_RATE_LIMIT: '3', AUTH_RATE_LIMIT: '2' } });
  });
  afterAll(async () => t.stop());

  it('should count a guest address once across REST and STOMP and say when to retry on both', async () => {
    await t.callBean('probe', 'nothing', []).expect(200);
    await t.callBean('probe', 'nothing', []).expect(200);
    const guest = await TestStompClient.connect(t.url);
    await guest.subscribe(USER_REPLIES);
    const third = await ask(guest, '/request/bean', { beanId: 'probe', functionName: 'nothing' });
    expect(JSON.parse(third.body)).toMatchObject({ status: 200 });
    expect(third.headers['retry-after']).toBeUndefined();
    const fourth = await ask(guest, '/request/bean', { beanId: 'probe', functionName: 'nothing' });
    const refusal = JSON.parse(fourth.body) as Body;
    const expected = { status: 429, error: 'Too Many Requests', message: 'Too many calls: at most 3 per minute' };
    expect(refusal).toMatchObject(expected);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(60);
    await guest.disconnect();

    const rest = await t.callBean('probe', 'nothing', []).expect(429);
    expect(comparable(rest.body as Body)).toEqual(comparable(refusal));
    expect(Number(rest.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(rest.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('should ignore X-Forwarded-For from a peer TRUST_PROXY does not trust (the default)', async () => {
    const guest = await TestStompClient.connect(t.url, { upgradeHeaders: { 'X-Forwarded-For': '198.51.100.1' } });
    await guest.subscribe(USER_REPLIES);
    const reply = await ask(guest, '/request/bean', { beanId: 'probe', functionName: 'nothing' });
    expect(JSON.parse(reply.body)).toMatchObject({ status: 429 });
    await guest.disconnect();
  });

  it("should not count a guest address's calls against a signed-in principal", async () => {
    await t.callBean('probe', 'nothing', [], { token: t.tokenFor(Role.USER) }).expect(200);
  });

  it('should send Retry-After with the login throttle 429', async () => {
    const attempt = () => t.http.post('/api/v1/auth/token').send({ username: 'nobody', password: 'wrong-password' });
    await attempt().expect(401);
    await attempt().expect(401);
    const throttled = await attempt().expect(429);
    // The login throttle does not know its own wait; a 429 without one says a minute, the length of its window.
    expect(throttled.headers['retry-after']).toBe('60');
    expect(throttled.body).toMatchObject({ status: 429, error: 'Too Many Requests' });
  });
});

describe('Guests behind a trusted proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ imports: [ProbeModule], env: { BEAN_RATE_LIMIT: '3', TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => t.stop());

  const forwardedFor = (address: string) => ({ upgradeHeaders: { 'X-Forwarded-For': address } });
  const callAs = (client: TestStompClient) =>
    ask(client, '/request/bean', { beanId: 'probe', functionName: 'nothing' }).then(
      (reply) => (JSON.parse(reply.body) as Body).status,
    );

  it('should count each forwarded guest address on its own, one budget across REST and STOMP', async () => {
    const first = '203.0.113.7';
    await t.callBean('probe', 'nothing', []).set('X-Forwarded-For', first).expect(200);
    await t.callBean('probe', 'nothing', []).set('X-Forwarded-For', first).expect(200);
    const [guest, neighbour] = [
      await TestStompClient.connect(t.url, forwardedFor(first)),
      await TestStompClient.connect(t.url, forwardedFor('198.51.100.9')),
    ];
    await guest.subscribe(USER_REPLIES);
    await neighbour.subscribe(USER_REPLIES);

    expect([await callAs(guest), await callAs(guest)]).toEqual([200, 429]);
    expect([await callAs(neighbour), await callAs(neighbour), await callAs(neighbour)]).toEqual([200, 200, 200]);
    expect(await callAs(neighbour)).toBe(429);
    await guest.disconnect();
    await neighbour.disconnect();
  });
});

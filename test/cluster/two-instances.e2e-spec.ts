import { Role } from '../../src/common/principal';
import { MessageBroker } from '../../src/realtime/broker/message-broker';
import { EventPublisher } from '../../src/realtime/event-publisher';
import { createAccount } from '../auth/support/accounts';
import { RawStompSocket } from '../realtime/raw-stomp-socket';
import { TestStompClient } from '../realtime/stomp-client';
import { Cluster, startCluster } from '../support/cluster';
import { publishUntil } from '../support/shared-services';
import { TestApp } from '../support/test-app';

describe('Two instances on one database, one RabbitMQ relay and one Redis', () => {
  let cluster: Cluster;
  let a: TestApp;
  let b: TestApp;
  const clients: TestStompClient[] = [];

  beforeAll(async () => {
    // STOMP sessions re-check their tokens only every 10 minutes here: what ends them sooner is a notice.
    const env = {
      BEAN_RATE_LIMIT: '4',
      AUTH_LOCKOUT_THRESHOLD: '3',
      AUTH_RATE_LIMIT: '6',
      STOMP_REVERIFY_MS: '600000',
    };
    cluster = await startCluster({ env });
    [a, b] = cluster.instances;
  });
  afterEach(async () => Promise.all(clients.splice(0).map((client) => client.disconnect())));
  afterAll(async () => cluster?.stop());

  const connect = async (app: TestApp, token?: string) => {
    const client = await TestStompClient.connect(app.url, { token });
    clients.push(client);
    return client;
  };
  const login = (app: TestApp, username: string, password: string) =>
    app.http.post('/api/v1/auth/token').send({ username, password });

  it('should accept on one instance a token issued by the other', async () => {
    const account = await createAccount(a);
    const { body } = await login(a, account.username, account.password).expect(200);
    const admin = await login(a, 'test-admin', 'test-password-1').expect(200);
    await b.callBean('dummyTree', 'getElements', [], { token: body.token }).expect(403);
    await b.callBean('dummyTree', 'getElements', [], { token: admin.body.token }).expect(200);
  });

  it('should deliver an event published on one instance to subscribers on both', async () => {
    const token = a.tokenFor(Role.ADMIN);
    const [onA, onB] = [await connect(a, token), await connect(b, token)];
    await Promise.all([onA.subscribe('/topic/jobs'), onB.subscribe('/topic/jobs')]);
    const event = { event: 'job.updated', id: 'x', data: 'b' };
    const publish = () => b.app.get(EventPublisher).publish('/topic/jobs', event);
    expect(await publishUntil(publish, onA.next('/topic/jobs'))).toMatchObject({ event: 'job.updated', data: 'b' });
    expect(await onB.next('/topic/jobs')).toMatchObject({ event: 'job.updated', data: 'b' });
  });

  it('should reach a user on whichever instance the user is connected to, and only that user', async () => {
    const carol = await a.createUser({ username: 'carol', role: Role.USER });
    const dave = await a.createUser({ username: 'dave', role: Role.USER });
    const carolOnB = await connect(b, carol.token);
    const daveOnA = await connect(a, dave.token);
    await Promise.all([carolOnB.subscribe('/user/topic/default/json'), daveOnA.subscribe('/user/topic/default/json')]);
    const publish = () => a.app.get(MessageBroker).publishToUser(carol.id, '/topic/default/json', '{"for":"carol"}');
    expect(await publishUntil(publish, carolOnB.next('/user/topic/default/json'))).toEqual({ for: 'carol' });
    expect(daveOnA.messages('/user/topic/default/json')).toHaveLength(0);
  });

  it("should end a disabled user's STOMP session on the other instance at once", async () => {
    const frank = await a.createUser({ username: 'frank', role: Role.USER });
    const socket = await RawStompSocket.open(b.url);
    const connected = await socket.connect(`accept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${frank.token}\n`);
    expect(connected.command).toBe('CONNECTED');
    // Frank's account state is now cached on b, as after any call he makes there.
    await b.callBean('orderServiceImpl', 'getOrdersFromLoggedUser', [], { token: frank.token }).expect(200);

    const admin = a.tokenFor(Role.ADMIN);
    await a.callBean('userManagementServiceImpl', 'disableUser', [frank.id], { token: admin }).expect(200);
    expect((await socket.next('ERROR')).headers.message).toBe('Token revoked');
    await socket.closed;
  });

  it('should lock a client out after AUTH_LOCKOUT_THRESHOLD failures spread over both instances', async () => {
    const account = await createAccount(a);
    for (const app of [a, b, a]) await login(app, account.username, 'guess').expect(401);
    const refused = await login(b, account.username, account.password).expect(429);
    expect(refused.body).toMatchObject({ status: 429, error: 'Too Many Requests' });
    await login(a, account.username, account.password).expect(429);
  });

  it('should count login attempts of a client against one AUTH_RATE_LIMIT over both instances', async () => {
    const account = await createAccount(a);
    for (const app of [a, b, a, b, a, b]) await login(app, account.username, account.password).expect(200);
    await login(a, account.username, account.password).expect(429);
    await login(b, account.username, account.password).expect(429);
  });

  it('should give a principal one bean-call budget over both instances, REST and STOMP alike', async () => {
    const { token } = await a.createUser({ username: 'erin', role: Role.ADMIN });
    for (const app of [a, b, a]) await app.callBean('dummyTree', 'getElements', [], { token }).expect(200);
    const onB = await connect(b, token);
    await onB.subscribe('/user/topic/default/json');
    onB.send('/request/bean', { beanId: 'dummyTree', functionName: 'getElements', args: [], actionId: 'fourth' });
    const reply = await onB.next('/user/topic/default/json', (body) => body.actionId === 'fourth');
    expect(reply).toMatchObject({ status: 200 });
    const limited = await b.callBean('dummyTree', 'getElements', [], { token }).expect(429);
    expect(limited.body).toMatchObject({ status: 429, error: 'Too Many Requests' });
    await a.callBean('dummyTree', 'getElements', [], { token }).expect(429);
  });

  it('should report Redis and the relay in the health check of each instance', async () => {
    for (const app of [a, b]) {
      const { body } = await app.http.get('/api/v1/health').expect(200);
      expect(body.info).toMatchObject({
        database: { status: 'up' },
        redis: { status: 'up', latencyMs: expect.any(Number) },
        relay: { status: 'up', buffered: 0, dropped: 0 },
      });
    }
  });
});

import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { Role } from '../../src/common/principal';
import { TopicAuthorizer } from '../../src/realtime/auth/topic-authorizer';
import { MessageBroker } from '../../src/realtime/broker/message-broker';
import { EventPublisher } from '../../src/realtime/event-publisher';
import { startTestApp, TestApp } from '../support/test-app';
import { TestStompClient } from './stomp-client';

const REPLIES = '/user/topic/default/json';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('STOMP subscriptions', () => {
  let t: TestApp;
  const clients: TestStompClient[] = [];
  const connect = async (...args: Parameters<typeof TestStompClient.connect>) => {
    const client = await TestStompClient.connect(...args);
    clients.push(client);
    await client.subscribe(REPLIES);
    return client;
  };
  // Ids known before the app starts: the test tables below name them.
  const alice = { id: new Types.ObjectId().toString(), username: 'alice' };
  const bob = { id: new Types.ObjectId().toString(), username: 'bob' };

  /** SUBSCRIBE with a receipt; resolves to 'subscribed' on RECEIPT or to the refusal reply. */
  const trySubscribe = async (client: TestStompClient, destination: string) => {
    const receipt = `r-${randomUUID()}`;
    const confirmed = client.receipt(receipt).then(() => 'subscribed' as const);
    client.client.subscribe(destination, (m) => client.inbox.set(destination, [...client.messages(destination), m]), {
      receipt,
    });
    const refused = client.next(REPLIES, (reply) => reply.actionId === receipt).catch(() => 'no answer');
    return Promise.race([confirmed, refused]);
  };

  beforeAll(async () => {
    t = await startTestApp();
    await Promise.all([alice, bob].map((user) => t.createUser({ ...user, role: Role.USER })));
  });
  afterEach(async () => Promise.all(clients.splice(0).map((c) => c.disconnect())));
  afterAll(async () => t.stop());

  describe('user destinations', () => {
    it('should reach every session of their user and nobody else', async () => {
      const alicePhone = await connect(t.url, { token: t.tokenFor(Role.USER, alice) });
      const aliceLaptop = await connect(t.url, { token: t.tokenFor(Role.USER, alice), transport: 'sockjs' });
      const bobClient = await connect(t.url, { token: t.tokenFor(Role.USER, bob) });
      const guest = await connect(t.url);
      t.app.get(MessageBroker).publishToUser(alice.id, '/topic/default/json', JSON.stringify({ note: 'for alice' }));
      expect(await alicePhone.next(REPLIES)).toEqual({ note: 'for alice' });
      expect(await aliceLaptop.next(REPLIES)).toEqual({ note: 'for alice' });
      await pause(200);
      expect(bobClient.messages(REPLIES)).toHaveLength(0);
      expect(guest.messages(REPLIES)).toHaveLength(0);
    });

    it('should keep replies of one guest from another', async () => {
      const first = await connect(t.url);
      const second = await connect(t.url);
      first.send('/request/bean', { beanId: 'dummyTree', functionName: 'getElements', args: [], actionId: 'mine' });
      expect(await first.next(REPLIES)).toMatchObject({ actionId: 'mine', status: 403 });
      await pause(200);
      expect(second.messages(REPLIES)).toHaveLength(0);
    });
  });

  describe('authorization', () => {
    it.each<[string, string, Role.USER | undefined]>([
      ['a guest', '/topic/jobs', undefined],
      ['a user', '/topic/jobs', Role.USER],
      ['a user', '/topic/job/42', Role.USER],
      ['a user', '/topic/job/42/progress', Role.USER],
      ["another user's", `/topic/customer/${bob.id}`, Role.USER],
      ['a guest', `/topic/customer/${alice.id}`, undefined],
      ['a user', '/topic/order/7', Role.USER],
    ])(
      'should refuse %s subscription to %s with Access denied and keep the connection',
      async (_, destination, role) => {
        const client = await connect(t.url, role ? { token: t.tokenFor(role, alice) } : {});
        expect(await trySubscribe(client, destination)).toMatchObject({
          status: 403,
          error: 'Access denied',
          path: destination,
        });
        expect(client.client.connected).toBe(true);
      },
    );

    it.each<[Role.USER | Role.ADMIN, string]>([
      [Role.USER, `/topic/customer/${alice.id}`],
      [Role.ADMIN, '/topic/jobs'],
      [Role.ADMIN, '/topic/job/42'],
      [Role.ADMIN, '/topic/order/7'],
      [Role.ADMIN, `/topic/customer/${bob.id}`],
      [Role.USER, '/topic/news'],
      [Role.USER, '/queue/updates'],
    ])('should let a %s follow %s', async (role, destination) => {
      const client = await connect(t.url, { token: t.tokenFor(role, role === Role.USER ? alice : {}) });
      expect(await trySubscribe(client, destination)).toBe('subscribed');
    });

    it('should refuse destinations outside the broker prefixes with 400', async () => {
      const client = await connect(t.url);
      expect(await trySubscribe(client, '/request/bean')).toMatchObject({ status: 400 });
      expect(await trySubscribe(client, '/topic/../jobs')).toMatchObject({ status: 400 });
    });

    it('should apply a rule a module registers for orders', async () => {
      t.app
        .get(TopicAuthorizer)
        .register('/topic/order/{id}', (principal, { id }) => id === `bought-by-${principal.username}`);
      const client = await connect(t.url, { token: t.tokenFor(Role.USER, alice) });
      expect(await trySubscribe(client, '/topic/order/bought-by-alice')).toBe('subscribed');
      expect(await trySubscribe(client, '/topic/order/bought-by-bob')).toMatchObject({ status: 403 });
    });
  });

  describe('live events', () => {
    it('should deliver published events with a timestamp to subscribers only until they unsubscribe', async () => {
      const admin = await connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      const subscription = admin.client.subscribe(
        '/topic/jobs',
        (m) => admin.inbox.set('/topic/jobs', [...admin.messages('/topic/jobs'), m]),
        { receipt: 'jobs' },
      );
      await admin.receipt('jobs');
      const events = t.app.get(EventPublisher);
      events.publish('/topic/jobs', { event: 'job.updated', id: 'j1', data: { progress: 50 } });
      expect(await admin.next('/topic/jobs')).toEqual({
        event: 'job.updated',
        id: 'j1',
        data: { progress: 50 },
        timestamp: expect.any(String),
      });
      subscription.unsubscribe({ receipt: 'unsub' });
      await pause(100);
      events.publish('/topic/jobs', { event: 'job.updated', id: 'j1', data: { progress: 60 } });
      await pause(200);
      expect(admin.messages('/topic/jobs')).toHaveLength(0);
    });
  });
});

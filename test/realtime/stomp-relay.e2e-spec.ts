import { Role } from '../../src/common/principal';
import { MessageBroker } from '../../src/realtime/broker/message-broker';
import { EventPublisher } from '../../src/realtime/event-publisher';
import { startTestApp, TestApp } from '../support/test-app';
import { TestStompClient } from './stomp-client';

/** Repeats `publish` until `received` settles: an upstream SUBSCRIBE may still be on its way. */
async function publishUntil<T>(publish: () => void, received: Promise<T>): Promise<T> {
  let done = false;
  const settled = received.finally(() => (done = true));
  for (let i = 0; i < 50 && !done; i++) {
    publish();
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  return settled;
}

describe('STOMP relay through an external broker', () => {
  // The external broker is an instance of this server itself (instead of RabbitMQ, which tests cannot rely on),
  // open for clients to SEND to the relay's topics.
  let external: TestApp;
  let first: TestApp;
  let second: TestApp;
  const clients: TestStompClient[] = [];

  beforeAll(async () => {
    external = await startTestApp({ env: { STOMP_CLIENT_SEND_PREFIXES: '/topic/ccb.' } });
    const env = { STOMP_RELAY_URL: `${external.url.replace(/^http/, 'ws')}/ws` };
    [first, second] = [await startTestApp({ env }), await startTestApp({ env })];
  });
  afterEach(async () => Promise.all(clients.splice(0).map((c) => c.disconnect())));
  afterAll(async () => {
    await Promise.all([first.stop(), second.stop()]);
    await external.stop();
  });

  const connect = async (app: TestApp, options: Parameters<typeof TestStompClient.connect>[1] = {}) => {
    const client = await TestStompClient.connect(app.url, options);
    clients.push(client);
    return client;
  };

  it('should deliver an event published on one instance to subscribers of every instance', async () => {
    const onFirst = await connect(first, { token: first.tokenFor(Role.ADMIN) });
    const onSecond = await connect(second, { token: second.tokenFor(Role.ADMIN) });
    await Promise.all([onFirst.subscribe('/topic/jobs'), onSecond.subscribe('/topic/jobs')]);
    const publish = () => second.app.get(EventPublisher).publish('/topic/jobs', { event: 'job.updated', id: 'j1', data: 1 });
    expect(await publishUntil(publish, onFirst.next('/topic/jobs'))).toMatchObject({ event: 'job.updated', id: 'j1' });
    expect(await onSecond.next('/topic/jobs')).toMatchObject({ event: 'job.updated' });
  });

  it('should reach a user on another instance, and only that user', async () => {
    const alice = await first.createUser({ username: 'alice', role: Role.USER });
    const aliceClient = await connect(first, { token: alice.token });
    const bobClient = await connect(first, { token: (await first.createUser({ username: 'bob', role: Role.USER })).token });
    await Promise.all([aliceClient.subscribe('/user/topic/default/json'), bobClient.subscribe('/user/topic/default/json')]);
    const publish = () => second.app.get(MessageBroker).publishToUser(alice.id, '/topic/default/json', '{"for":"alice"}');
    expect(await publishUntil(publish, aliceClient.next('/user/topic/default/json'))).toEqual({ for: 'alice' });
    expect(bobClient.messages('/user/topic/default/json')).toHaveLength(0);
  });

  it('should keep protected topics apart from look-alike public ones upstream', async () => {
    const admin = await connect(first, { token: first.tokenFor(Role.ADMIN) });
    const guest = await connect(first);
    await Promise.all([admin.subscribe('/topic/order/1'), guest.subscribe('/topic/order.1')]);
    const publish = () => second.app.get(EventPublisher).publish('/topic/order/1', { event: 'order.status', id: '1', data: 'PAID' });
    await publishUntil(publish, admin.next('/topic/order/1'));
    expect(guest.messages('/topic/order.1')).toHaveLength(0);
  });
});

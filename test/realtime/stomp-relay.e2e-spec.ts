import { Role } from '../../src/common/principal';
import { MessageBroker } from '../../src/realtime/broker/message-broker';
import { EventPublisher } from '../../src/realtime/event-publisher';
import {
  publishUntil,
  RABBITMQ_WEB_STOMP,
  relayEnvironment,
  requireService,
  uniqueName,
} from '../support/shared-services';
import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, TestApp } from '../support/test-app';
import { TestStompClient } from './stomp-client';

/** Polls readiness until it says the relay is up, or down (connection changes are asynchronous). */
async function untilRelayIs(app: TestApp, state: 'up' | 'degraded'): Promise<void> {
  for (;;) {
    const { body } = await app.http.get('/api/v1/health').expect(200);
    const { degraded } = (body as { info: { relay: { degraded?: string } } }).info.relay;
    if ((degraded === undefined) === (state === 'up')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('STOMP relay through RabbitMQ Web-STOMP', () => {
  // Every instance of this file relays through the RabbitMQ on the machine, in a namespace of its own.
  const namespace = uniqueName();
  let first: TestApp;
  let second: TestApp;
  const clients: TestStompClient[] = [];

  beforeAll(async () => {
    await requireService('rabbitmq');
    first = await startTestApp({ env: relayEnvironment(namespace) });
    second = await startTestApp({ env: relayEnvironment(namespace) });
  });
  afterEach(async () => Promise.all(clients.splice(0).map((c) => c.disconnect())));
  afterAll(async () => Promise.all([first?.stop(), second?.stop()]));

  const connect = async (app: TestApp, options: Parameters<typeof TestStompClient.connect>[1] = {}) => {
    const client = await TestStompClient.connect(app.url, options);
    clients.push(client);
    return client;
  };

  it('should deliver an event published on one instance to subscribers of every instance', async () => {
    const onFirst = await connect(first, { token: first.tokenFor(Role.ADMIN) });
    const onSecond = await connect(second, { token: second.tokenFor(Role.ADMIN) });
    await Promise.all([onFirst.subscribe('/topic/jobs'), onSecond.subscribe('/topic/jobs')]);
    const publish = () =>
      second.app.get(EventPublisher).publish('/topic/jobs', { event: 'job.updated', id: 'j1', data: 1 });
    expect(await publishUntil(publish, onFirst.next('/topic/jobs'))).toMatchObject({ event: 'job.updated', id: 'j1' });
    expect(await onSecond.next('/topic/jobs')).toMatchObject({ event: 'job.updated' });
  });

  it('should reach a user on another instance, and only that user', async () => {
    const alice = await first.createUser({ username: 'alice', role: Role.USER });
    const aliceClient = await connect(first, { token: alice.token });
    const bobClient = await connect(first, {
      token: (await first.createUser({ username: 'bob', role: Role.USER })).token,
    });
    await Promise.all([
      aliceClient.subscribe('/user/topic/default/json'),
      bobClient.subscribe('/user/topic/default/json'),
    ]);
    const publish = () =>
      second.app.get(MessageBroker).publishToUser(alice.id, '/topic/default/json', '{"for":"alice"}');
    expect(await publishUntil(publish, aliceClient.next('/user/topic/default/json'))).toEqual({ for: 'alice' });
    expect(bobClient.messages('/user/topic/default/json')).toHaveLength(0);
  });

  it('should keep protected topics apart from look-alike public ones upstream', async () => {
    const admin = await connect(first, { token: first.tokenFor(Role.ADMIN) });
    const guest = await connect(first);
    await Promise.all([admin.subscribe('/topic/order/1'), guest.subscribe('/topic/order.1')]);
    const publish = () =>
      second.app.get(EventPublisher).publish('/topic/order/1', { event: 'order.status', id: '1', data: 'PAID' });
    await publishUntil(publish, admin.next('/topic/order/1'));
    expect(guest.messages('/topic/order.1')).toHaveLength(0);
  });

  it('should report the relay connected in the health check', async () => {
    const { body } = await first.http.get('/api/v1/health').expect(200);
    expect(body.info.relay).toEqual({ status: 'up', buffered: 0, dropped: 0 });
  });

  describe('while the publishing instance has lost its connection', () => {
    // The publisher reaches RabbitMQ through a proxy that the test cuts: only its own connection is lost.
    let proxy: TcpProxy;
    let publisher: TestApp;

    beforeAll(async () => {
      proxy = await TcpProxy.start(RABBITMQ_WEB_STOMP);
      publisher = await startTestApp({ env: { ...relayEnvironment(namespace, proxy), STOMP_RELAY_BUFFER: '3' } });
    });
    afterAll(async () => {
      await publisher?.stop();
      await proxy?.stop();
    });

    const publish = (seq: number) =>
      publisher.app.get(EventPublisher).publish('/topic/jobs', { event: 'job.updated', id: 'j2', data: seq });

    it('should keep STOMP_RELAY_BUFFER publications, send them in order once back, and report the rest', async () => {
      const subscriber = await connect(second, { token: second.tokenFor(Role.ADMIN) });
      await subscriber.subscribe('/topic/jobs');
      await publishUntil(
        () => publish(0),
        subscriber.next('/topic/jobs', (m) => m.data === 0),
      );

      await proxy.cut();
      await untilRelayIs(publisher, 'degraded');
      for (const seq of [1, 2, 3, 4]) publish(seq);
      // still ready: every call is answered meanwhile, only live events wait
      const degraded = await publisher.http.get('/api/v1/health').expect(200);
      expect(degraded.body.info.relay).toEqual({
        status: 'up',
        degraded: 'not connected; 3 buffered, 1 dropped',
        buffered: 3,
        dropped: 1,
      });

      await proxy.restore();
      await untilRelayIs(publisher, 'up');
      publish(5);
      await subscriber.next('/topic/jobs', (m) => m.data === 5);
      const received = subscriber.messages('/topic/jobs').map((m) => JSON.parse(m.body).data);
      expect(received.filter((seq: number) => seq > 0)).toEqual([1, 2, 3]); // 5 was taken above, after them
      const ready = await publisher.http.get('/api/v1/health').expect(200);
      expect(ready.body.info.relay).toEqual({ status: 'up', buffered: 0, dropped: 1 });
    });
  });
});

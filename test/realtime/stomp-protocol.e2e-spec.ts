import { JwtService } from '@nestjs/jwt';
import { Role } from '../../src/common/principal';
import { EventPublisher } from '../../src/realtime/event-publisher';
import { startTestApp, TestApp } from '../support/test-app';
import { RawStompSocket } from './raw-stomp-socket';
import { TestStompClient } from './stomp-client';

const withinMs = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms)),
  ]);

describe('STOMP protocol', () => {
  let t: TestApp;
  const sockets: RawStompSocket[] = [];
  const open = async () => {
    const socket = await RawStompSocket.open(t.url);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => (t = await startTestApp()));
  afterEach(() => sockets.splice(0).forEach((s) => s.close()));
  afterAll(async () => t.stop());

  describe('CONNECT', () => {
    it.each([
      ['accept-version:1.0,1.1\n', '1.1'],
      ['accept-version:1.2,1.1,1.0\n', '1.2'],
      ['', '1.0'],
    ])('should negotiate %j to version %s', async (headers, version) => {
      const connected = await (await open()).connect(headers);
      expect(connected.command).toBe('CONNECTED');
      expect(connected.headers.version).toBe(version);
    });

    it('should accept the STOMP command', async () => {
      const socket = await open();
      socket.send('STOMP\naccept-version:1.2\nhost:x\n\n\0');
      expect((await socket.next()).command).toBe('CONNECTED');
    });

    it('should refuse an unsupported version with ERROR and close', async () => {
      const socket = await open();
      const error = await socket.connect('accept-version:2.0\n');
      expect(error).toMatchObject({ command: 'ERROR', headers: expect.objectContaining({ version: '1.2,1.1,1.0' }) });
      await withinMs(socket.closed, 2000);
    });

    it('should refuse a frame before CONNECT', async () => {
      const socket = await open();
      socket.send('SEND\ndestination:/request/bean\n\n{}\0');
      expect((await socket.next()).command).toBe('ERROR');
      await withinMs(socket.closed, 2000);
    });

    it('should refuse a bad token with ERROR', async () => {
      const socket = await open();
      const error = await socket.connect('accept-version:1.2\nAuthorization:Bearer not.a.token\n');
      expect(error).toMatchObject({ command: 'ERROR', headers: expect.objectContaining({ message: 'Unauthorized' }) });
      await withinMs(socket.closed, 2000);
    });

    it('should name the user of a valid token', async () => {
      const { connected } = await TestStompClient.connect(t.url, {
        token: (await t.createUser({ username: 'alice', role: Role.USER })).token,
      });
      expect(connected.headers['user-name']).toBe('alice');
    });

    it('should end the session when its token expires', async () => {
      const brief = await t.createUser({ username: 'brief', role: Role.USER });
      const token = t.app
        .get(JwtService)
        .sign({ sub: brief.id, username: brief.username, role: Role.USER, jti: 'j-exp' }, { expiresIn: 2 });
      const socket = await open();
      expect((await socket.connect(`accept-version:1.2\nAuthorization:Bearer ${token}\n`)).command).toBe('CONNECTED');
      await withinMs(socket.closed, 4000);
      expect((await socket.next()).headers.message).toBe('Token expired');
    });

    it('should offer the default heart-beats of 10000,10000', async () => {
      const socket = await open();
      const connected = await socket.connect('accept-version:1.2\nheart-beat:5000,5000\n');
      expect(connected.headers['heart-beat']).toBe('10000,10000');
    });
  });

  describe('receipts', () => {
    it('should confirm SUBSCRIBE, UNSUBSCRIBE and DISCONNECT', async () => {
      const socket = await open();
      await socket.connect();
      socket.send('SUBSCRIBE\nid:0\ndestination:/topic/a\nreceipt:s\n\n\0');
      socket.send('UNSUBSCRIBE\nid:0\nreceipt:u\n\n\0');
      socket.send('DISCONNECT\nreceipt:d\n\n\0');
      const receipts = [await socket.next(), await socket.next(), await socket.next()];
      expect(receipts.map((f) => [f.command, f.headers['receipt-id']])).toEqual([
        ['RECEIPT', 's'],
        ['RECEIPT', 'u'],
        ['RECEIPT', 'd'],
      ]);
      await withinMs(socket.closed, 2000);
    });
  });

  describe('framing over WebSocket messages', () => {
    it('should take a frame split across messages and several frames in one message', async () => {
      const socket = await open();
      socket.send('CONNECT\naccept-');
      socket.send('version:1.2\n\n\0');
      expect((await socket.next()).command).toBe('CONNECTED');
      socket.send(
        'SUBSCRIBE\nid:0\ndestination:/topic/a\nreceipt:1\n\n\0\nSUBSCRIBE\nid:1\ndestination:/topic/b\nreceipt:2\n\n\0',
      );
      expect([(await socket.next()).headers['receipt-id'], (await socket.next()).headers['receipt-id']]).toEqual([
        '1',
        '2',
      ]);
    });
  });

  describe('SockJS request bodies', () => {
    const post = (size: number) =>
      fetch(`${t.url}/sock/000/limitcheck/xhr_send`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(['x'.repeat(size)]),
      }).then(
        (response) => response.status,
        () => 'dropped',
      );

    it('should answer a POST body beyond the limit with 413 and still answer small ones', async () => {
      expect(await post(2 * 1024 * 1024)).toBe(413);
      expect(await post(100)).toBe(404);
    });
  });

  describe('header escaping', () => {
    it('should escape the subscription id of MESSAGE frames in 1.2', async () => {
      const socket = await open();
      await socket.connect();
      socket.send('SUBSCRIBE\nid:a\\cb\\\\c\ndestination:/topic/escaping\nreceipt:r\n\n\0');
      await socket.next('RECEIPT');
      t.app.get(EventPublisher).publish('/topic/escaping', { event: 'e', id: '1', data: null });
      const message = await socket.next('MESSAGE');
      expect(message.headers.subscription).toBe('a:b\\c');
      expect(JSON.parse(message.body.toString())).toMatchObject({
        event: 'e',
        id: '1',
        data: null,
        timestamp: expect.any(String),
      });
    });
  });

  describe('malformed and oversized frames', () => {
    it.each([
      ['an oversized frame', `SEND\ndestination:/request/bean\n\n${'x'.repeat(70 * 1024)}\0`],
      ['a huge content-length', 'SEND\ndestination:/request/bean\ncontent-length:999999999\n\n'],
      ['a missing NUL after the body', 'SEND\ndestination:/request/bean\ncontent-length:2\n\n{}}'],
      ['an undefined escape', 'SEND\ndestination:/request/b\\tean\n\n{}\0'],
      ['an invalid command', 'HELLO WORLD\n\n\0'],
      ['binary garbage', Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x00])],
    ])('should answer %s with ERROR, close, and keep serving others', async (_, data) => {
      const bystander = await TestStompClient.connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      await bystander.subscribe('/user/topic/default/json');
      const socket = await open();
      await socket.connect();
      socket.send(data);
      expect((await socket.next()).command).toBe('ERROR');
      await withinMs(socket.closed, 2000);
      bystander.send('/request/bean', {
        beanId: 'dummyTree',
        functionName: 'getElements',
        args: [],
        actionId: 'alive',
      });
      expect(await bystander.next('/user/topic/default/json')).toMatchObject({ actionId: 'alive', status: 200 });
      await bystander.disconnect();
    });
  });
});

describe('STOMP heart-beats, slow consumers and client SEND prefixes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        STOMP_HEARTBEAT: '1000,1000',
        STOMP_CLIENT_SEND_PREFIXES: '/topic/open/',
        STOMP_MAX_BUFFERED_BYTES: '1048576',
        STOMP_REVERIFY_MS: '1000',
      },
    });
  });
  afterAll(async () => t.stop());

  it('should send heart-beats at the negotiated interval', async () => {
    const socket = await RawStompSocket.open(t.url);
    const connected = await socket.connect('accept-version:1.2\nheart-beat:0,1000\n');
    expect(connected.headers['heart-beat']).toBe('1000,0');
    // Two within 3.5 s, as a fixed wait of 3.5 s checked, but over as soon as the second one arrives.
    await socket.heartbeatsReach(2, 3500);
    socket.close();
  });

  it('should close a client that stops sending heart-beats', async () => {
    const socket = await RawStompSocket.open(t.url);
    const connected = await socket.connect('accept-version:1.2\nheart-beat:1000,0\n');
    expect(connected.headers['heart-beat']).toBe('0,1000');
    await withinMs(socket.closed, 4000);
    expect((await socket.next()).headers.message).toBe('Heart-beat timeout');
  });

  it('should keep a stompjs client that heart-beats alive', async () => {
    const client = await TestStompClient.connect(t.url, { heartbeat: [1000, 1000] });
    expect(client.connected.headers['heart-beat']).toBe('1000,1000');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(client.client.connected).toBe(true);
    await client.disconnect();
  });

  it('should end a session whose token is revoked by a logout', async () => {
    const token = t.tokenFor(Role.USER);
    const socket = await RawStompSocket.open(t.url);
    expect((await socket.connect(`accept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${token}\n`)).command).toBe(
      'CONNECTED',
    );
    await t.http.post('/api/v1/logout').set('Authorization', `Bearer ${token}`).send({ role: 'user' }).expect(200);
    await withinMs(socket.closed, 4000);
    expect((await socket.next()).headers.message).toBe('Token revoked');
  });

  it('should close a consumer that stops reading once its send queue passes the limit', async () => {
    const socket = await RawStompSocket.open(t.url);
    await socket.connect();
    socket.send('SUBSCRIBE\nid:0\ndestination:/topic/firehose\nreceipt:r\n\n\0');
    await socket.next('RECEIPT');
    socket.pause();
    const events = t.app.get(EventPublisher);
    const data = 'x'.repeat(32 * 1024);
    for (let i = 0; i < 2000; i++) {
      events.publish('/topic/firehose', { event: 'flood', id: String(i), data });
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    socket.resume();
    await withinMs(socket.closed, 10_000);
    expect(socket.frames.at(-1)?.headers.message).toBe('Slow consumer: too many undelivered messages');
  });

  it('should carry binary bodies sent to an open prefix byte for byte', async () => {
    const subscriber = await TestStompClient.connect(t.url);
    const publisher = await TestStompClient.connect(t.url);
    const received = new Promise<Uint8Array>((resolve) =>
      subscriber.client.subscribe('/topic/open/bin', (m) => resolve(m.binaryBody), { receipt: 'b' }),
    );
    await subscriber.receipt('b');
    const bytes = new Uint8Array([0, 1, 2, 0, 255, 10, 0]);
    publisher.client.publish({
      destination: '/topic/open/bin',
      binaryBody: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(Buffer.from(await received)).toEqual(Buffer.from(bytes));
    await Promise.all([subscriber.disconnect(), publisher.disconnect()]);
  });

  it('should still refuse SENDs outside the open prefix', async () => {
    const client = await TestStompClient.connect(t.url);
    await client.subscribe('/user/topic/default/json');
    client.client.publish({ destination: '/topic/closed', body: 'x' });
    expect(await client.next('/user/topic/default/json')).toMatchObject({ status: 403 });
    await client.disconnect();
  });
});

import { AddressInfo, Server, Socket } from 'node:net';
import WebSocket from 'ws';
import { BeanRegistry } from '../../../src/bean/bean-registry';
import { Role } from '../../../src/common/principal';
import { createOffer } from '../../../test/orders/support/order-fixtures';
import { startTestApp, TEST_PASSWORD, TestApp } from '../../../test/support/test-app';
import { ArgumentForm, beanManifest, CcbClient, CcbError, ClientOptions, createClient, JobEvent } from '../src';

/** Collects what a subscription receives and lets a test wait for the first message that matches. */
class Inbox<T> {
  private readonly received: T[] = [];
  private readonly waiters: Array<() => void> = [];

  readonly push = (message: T): void => {
    this.received.push(message);
    this.waiters.splice(0).forEach((wake) => wake());
  };

  async next(accept: (message: T) => boolean): Promise<T> {
    for (;;) {
      const found = this.received.find(accept);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

const failure = (call: Promise<unknown>): Promise<unknown> => call.catch((error: unknown) => error);

describe('@ccb/client against the running application', () => {
  let t: TestApp;
  const clients: CcbClient[] = [];
  const upgradedSockets = new Set<Socket>();
  /** The path of every WebSocket upgrade: `/ws` for native STOMP, `/sock/...` for SockJS's own WebSocket transport. */
  const upgradePaths: string[] = [];

  const client = (options: Partial<ClientOptions> = {}): CcbClient => {
    const defaults = { baseUrl: t.url, site: 'default', lang: 'en', live: { webSocket: WebSocket } };
    const created = createClient({ ...defaults, ...options });
    clients.push(created);
    return created;
  };
  // Logging in costs a password hash and counts against the login throttle: most tests reuse one login's token.
  let adminToken: string;
  const admin = async (options: Partial<ClientOptions> = {}): Promise<CcbClient> =>
    client({ token: adminToken, ...options });

  beforeAll(async () => {
    t = await startTestApp();
    t.app.getHttpServer().on('upgrade', (request: { url: string }, socket: Socket) => {
      upgradedSockets.add(socket);
      upgradePaths.push(request.url);
    });
    const session = createClient({ baseUrl: t.url, site: 'default', lang: 'en' });
    adminToken = (await session.login('test-admin', TEST_PASSWORD, { renew: false })).token;
  });
  afterEach(async () => Promise.all(clients.splice(0).map((c) => c.close())));
  afterAll(async () => t.stop());

  it('should log in with username and password and know the role and expiry', async () => {
    const c = client();
    const token = await c.login('test-admin', TEST_PASSWORD);
    expect(token).toEqual({ token: expect.any(String), role: 'ADMIN', expires: expect.any(Number) });
    expect(c.token).toBe(token);
  });

  it('should refuse bad credentials with a typed 401', async () => {
    const error = await client()
      .login('test-admin', 'wrong-password')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CcbError);
    expect(error).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      status: 401,
      error: 'Unauthorized',
      requestId: expect.any(String),
    });
  });

  it.each<[ArgumentForm, unknown[]]>([
    ['positional', ['import', 3]],
    ['indexed', [{ 0: 'import', 1: 3 }]],
    ['indexed-split', [{ 0: 'import' }, { 1: 3 }]],
  ])('should call a bean with %s arguments', async (argumentForm, wireArgs) => {
    const sent: unknown[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : input.toString();
      if (url.endsWith('/bean/request')) sent.push(JSON.parse(init?.body as string).args);
      return fetch(input, init);
    };
    const c = await admin({ argumentForm, fetch: recordingFetch });
    const job = await c.beans.jobsManagementServiceImpl.startJob('import', 3);
    expect(sent).toEqual([wireArgs]);
    expect(job).toMatchObject({ type: 'import', total: 3, status: 'IN_PROGRESS', id: expect.any(String) });
    expect(new Date(job.createdAt).toISOString()).toBe(job.createdAt);
  });

  it('should call a DTO (map) argument and an id list', async () => {
    const c = await admin();
    const job = await c.beans.jobsManagementServiceImpl.createJob({ type: 'export', total: 4 });
    expect(job).toMatchObject({ type: 'export', total: 4, current: 0, status: 'NEW' });
    await expect(c.beans.jobsManagementServiceImpl.removeJobsByIds([job.id])).resolves.toBeNull();
  });

  it('should choose an overload by arity: getCartDTO() for the caller, getCartDTO(buyerId) for an ADMIN', async () => {
    const alice = await t.createUser({ username: 'client-alice', role: Role.USER });
    const user = client({ token: alice.token });
    const own = await user.beans.shoppingCartServiceImpl.getCartDTO();
    const byAdmin = await (await admin()).beans.shoppingCartServiceImpl.getCartDTO(alice.id);
    expect(own).not.toBeNull();
    expect(byAdmin).toEqual(own);
  });

  it('should reject with one typed error class carrying the error body', async () => {
    const c = await admin();
    const error = await c.beans.jobsManagementServiceImpl.toDone('0123456789abcdef01234567').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CcbError);
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
      error: 'Not Found',
      message: expect.stringContaining('not found'),
    });
    expect((error as CcbError).requestId).toMatch(/\S/);
    const invalid = await failure(c.beans.jobsManagementServiceImpl.createJob({ type: 'x', total: -1 }));
    const fieldProblem = expect.objectContaining({ field: expect.any(String) });
    expect(invalid).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
      details: expect.arrayContaining([fieldProblem]),
    });
    const guest = await client()
      .beans.jobsManagementServiceImpl.toDone('x')
      .catch((e: unknown) => e);
    expect(guest).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('should let a shop branch on the stable code of a domain error', async () => {
    const offer = await createOffer(t, { quantity: 1 });
    const bob = await t.createUser({ username: 'client-bob', role: Role.USER });
    const shop = client({ token: bob.token });
    const nextStep = async (call: Promise<unknown>): Promise<string> => {
      try {
        await call;
        return 'confirm';
      } catch (error: unknown) {
        if (!(error instanceof CcbError)) throw error;
        switch (error.code) {
          case 'CART_EMPTY':
            return 'browse the catalogue';
          case 'OUT_OF_STOCK':
            return 'offer fewer';
          default:
            return `report ${error.code}`;
        }
      }
    };
    expect(await nextStep(shop.beans.orderServiceImpl.orderCheckout())).toBe('browse the catalogue');
    const items = [{ sellerSkuId: offer.sellerSkuId, quantity: 2 }];
    expect(await nextStep(shop.beans.shoppingCartServiceImpl.addCommerceItems({ items }))).toBe('offer fewer');
    expect(await nextStep(shop.beans.shoppingCartServiceImpl.addCommerceItems({ items: [] }))).toBe(
      'report VALIDATION_FAILED',
    );
  });

  it('should forget the token on logout, which the server revokes', async () => {
    const c = client();
    await c.login('test-admin', TEST_PASSWORD);
    const { token } = c.token!;
    await c.logout();
    expect(c.token).toBeUndefined();
    const revoked = await client({ token })
      .beans.jobsManagementServiceImpl.getRepository()
      .catch((e: unknown) => e);
    expect(revoked).toMatchObject({ status: 401 });
  });

  it.each(['websocket', 'sockjs'] as const)('should receive a job progress in client.live (%s)', async (transport) => {
    const c = await admin({ live: { webSocket: WebSocket, transport } });
    const job = await c.beans.jobsManagementServiceImpl.startJob('live', 4);
    const events = new Inbox<JobEvent>();
    await c.live.subscribe(`/topic/job/${job.id}`, events.push);
    await c.beans.jobsManagementServiceImpl.incrementJob(job.id, 1);
    const event = await events.next((e) => e.event === 'job.updated' && e.data.current === 1);
    const progress = { progress: 25, status: 'IN_PROGRESS' };
    expect(event).toMatchObject({ id: job.id, data: progress, timestamp: expect.any(String) });
    expect(c.live.transport).toBe(transport);
  });

  it('should fall back to SockJS when a WebSocket cannot be opened (auto transport)', async () => {
    /** What a proxy that refuses WebSocket upgrades looks like to the client: the socket closes before opening. */
    class BlockedWebSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url.replace(/\/ws$/, '/blocked'), protocols);
      }
    }
    const c = await admin({ live: { webSocket: BlockedWebSocket, reconnectDelayMs: 50 } });
    expect(c.live.transport).toBe('websocket');
    await c.live.connect();
    expect(c.live.transport).toBe('sockjs');
    const job = await c.live.beans.jobsManagementServiceImpl.startJob('fallback', 1);
    expect(job).toMatchObject({ type: 'fallback' });
  });

  describe('with no live options (Node 20 has no global WebSocket)', () => {
    it('should use the ws package when it is installed', async () => {
      const c = createClient({ baseUrl: t.url, site: 'default', lang: 'en', token: adminToken });
      clients.push(c);
      const upgradesBefore = upgradePaths.length;
      const job = await c.live.beans.jobsManagementServiceImpl.startJob('plain-node', 1);
      expect(job).toMatchObject({ type: 'plain-node' });
      expect(c.live.transport).toBe('websocket');
      expect(upgradePaths.slice(upgradesBefore)).toEqual(['/ws']);
    });

    it('should use SockJS when ws is not installed', async () => {
      let fresh: typeof import('../src') | undefined;
      jest.isolateModules(() => {
        jest.doMock('ws', () => {
          throw Object.assign(new Error("Cannot find module 'ws'"), { code: 'MODULE_NOT_FOUND' });
        });
        fresh = jest.requireActual<typeof import('../src')>('../src');
      });
      const c = fresh!.createClient({ baseUrl: t.url, site: 'default', lang: 'en', token: adminToken });
      clients.push(c);
      const upgradesBefore = upgradePaths.length;
      const job = await c.live.beans.jobsManagementServiceImpl.startJob('no-ws', 1);
      expect(job).toMatchObject({ type: 'no-ws' });
      expect(c.live.transport).toBe('sockjs');
      expect(upgradePaths.slice(upgradesBefore)).not.toContain('/ws');
      jest.dontMock('ws');
    });
  });

  describe('failures are rejections', () => {
    it('should reject a live call with the server refusal of CONNECT', async () => {
      const c = await admin({ site: 'nowhere' });
      const refused = await failure(c.live.beans.jobsManagementServiceImpl.startJob('x', 1));
      expect(refused).toBeInstanceOf(CcbError);
      expect(refused).toMatchObject({ code: 'UNKNOWN_SITE', status: 400 });
    });

    it('should reject calls to a server that does not answer with NETWORK_ERROR', async () => {
      const closed = new Server();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const c = client({ baseUrl: `http://127.0.0.1:${port}`, live: { webSocket: WebSocket, callTimeoutMs: 300 } });
      expect(await failure(c.beans.jobsManagementServiceImpl.toDone('x'))).toMatchObject({
        code: 'NETWORK_ERROR',
        status: 0,
      });
      expect(await failure(c.live.beans.jobsManagementServiceImpl.toDone('x'))).toMatchObject({
        code: 'NETWORK_ERROR',
        status: 0,
      });
    });
  });

  it('should call beans over STOMP, correlated by actionId, with typed errors', async () => {
    const c = await admin();
    const [a, b] = await Promise.all([
      c.live.beans.jobsManagementServiceImpl.startJob('stomp-a', 1),
      c.live.beans.jobsManagementServiceImpl.startJob('stomp-b', 2),
    ]);
    expect([a.type, b.type]).toEqual(['stomp-a', 'stomp-b']);
    const error = await failure(c.live.beans.jobsManagementServiceImpl.toDone('0123456789abcdef01234567'));
    expect(error).toBeInstanceOf(CcbError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, requestId: expect.any(String) });
  });

  it('should reconnect after the server drops the socket and renew its subscriptions', async () => {
    const c = await admin();
    const job = await c.beans.jobsManagementServiceImpl.startJob('reconnect', 10);
    const events = new Inbox<JobEvent>();
    await c.live.subscribe(`/topic/job/${job.id}`, events.push);
    const reconnected = c.live.nextConnect();
    upgradedSockets.forEach((socket) => socket.destroy());
    await reconnected;
    await c.beans.jobsManagementServiceImpl.incrementJob(job.id, 7);
    expect(await events.next((e) => e.event === 'job.updated' && e.data.current === 7)).toMatchObject({ id: job.id });
  });

  it('should refuse a guest a private topic (typed 403) and reconnect as ADMIN on a token change', async () => {
    const c = client();
    const refused = await c.live.subscribe('/topic/jobs', () => undefined).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CcbError);
    expect(refused).toMatchObject({ code: 'ACCESS_DENIED', status: 403, error: 'Access denied' });
    const reconnected = c.live.nextConnect();
    c.setToken(t.tokenFor(Role.ADMIN));
    await reconnected;
    const subscription = await c.live.subscribe('/topic/jobs', () => undefined);
    expect(subscription.destination).toBe('/topic/jobs');
  });

  it('should answer bad input over STOMP with typed 400 errors', async () => {
    const c = await admin();
    const badDestination = await c.live.subscribe('/topic/../jobs', () => undefined).catch((e: unknown) => e);
    expect(badDestination).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    type Untyped = Record<string, (...args: unknown[]) => Promise<unknown>>;
    const untyped = c.live.beans.jobsManagementServiceImpl as unknown as Untyped;
    const badArgument = await untyped.startJob('import', 'ten').catch((e: unknown) => e);
    expect(badArgument).toBeInstanceOf(CcbError);
    const problem = { field: 'args[1]', message: expect.stringContaining('int') };
    expect(badArgument).toMatchObject({ code: 'ARGUMENT_MISMATCH', status: 400, details: [problem] });
    const unknownFunction = await c.call('jobsManagementServiceImpl', 'noSuchFunction', []).catch((e: unknown) => e);
    expect(unknownFunction).toMatchObject({ code: 'UNKNOWN_FUNCTION', status: 400 });
  });

  it('should list exactly the beans, functions, roles and signatures of the running registry', () => {
    const live = Object.fromEntries(
      t.app
        .get(BeanRegistry)
        .list()
        .map((bean) => [
          bean.id,
          {
            role: bean.role,
            functions: Object.fromEntries(
              [...bean.functions.values()].map((fn) => [
                fn.name,
                fn.overloads.map(({ role, signature }) => ({ role, signature })),
              ]),
            ),
          },
        ]),
    );
    expect(beanManifest).toEqual(live);
  });
});

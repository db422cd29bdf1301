import Redis from 'ioredis';
import { Role } from '../../src/common/principal';
import { assertErrorBody } from '../fuzz/support/fuzz-http';
import { REDIS, redisEnvironment, requireService, uniqueName } from '../support/shared-services';
import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, TestApp } from '../support/test-app';

interface Readiness {
  status: string;
  info: { redis: { status: string; degraded?: string } };
}

interface Outcome {
  status: number;
  text: string;
}

/**
 * Clients calling beans (guests and a logged-in buyer) and logging in, without pause, until stopped; every answer
 * is kept. The traffic a Redis outage must not disturb.
 */
class Load {
  readonly outcomes: Outcome[] = [];
  private running = true;
  private readonly loops: Promise<void>[];
  private waiters: (() => void)[] = [];

  constructor(
    private readonly t: TestApp,
    clients: number,
  ) {
    const buyer = t.tokenFor(Role.USER);
    this.loops = Array.from({ length: clients }, (_, client) => this.loop(client % 2 === 0 ? undefined : buyer));
  }

  /** Resolves once `more` further answers have come in. */
  async answers(more: number): Promise<void> {
    const target = this.outcomes.length + more;
    while (this.outcomes.length < target) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  async stop(): Promise<Outcome[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.outcomes;
  }

  private async loop(token: string | undefined): Promise<void> {
    for (let i = 0; this.running; i++) {
      const call =
        i % 4 === 3
          ? this.t.http.post('/api/v1/auth/token').send({ username: 'test-user', password: 'not-the-password' })
          : this.t.callBean('profileSearchServiceImpl', 'getRepository', [], { token });
      const response = await call;
      this.outcomes.push({ status: response.status, text: response.text });
      this.waiters.splice(0).forEach((wake) => wake());
    }
  }
}

/** Keys under `prefix` in the machine's Redis, read directly (not through the proxy). */
async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  return redis.keys(`${prefix}*`);
}

/** Issue 25: Redis only holds counters, so its outage must cost their sharing, never an answer. */
describe('Redis outage', () => {
  let proxy: TcpProxy;
  let direct: Redis;
  let t: TestApp;
  const prefix = `test:${uniqueName()}:`;

  beforeAll(async () => {
    await requireService('redis');
    proxy = await TcpProxy.start(REDIS);
    direct = new Redis(REDIS.port, REDIS.host);
    const env = redisEnvironment(prefix);
    t = await startTestApp({ env: { ...env, REDIS_URL: `redis://127.0.0.1:${proxy.port}`, AUTH_RATE_LIMIT: '5' } });
  });

  afterAll(async () => {
    await t?.stop();
    await proxy?.stop();
    const left = direct ? await keysUnder(direct, prefix) : [];
    if (left.length > 0) await direct.del(...left);
    direct?.disconnect();
  });

  const readiness = async () => (await t.http.get('/api/v1/health').expect(200)).body as Readiness;
  const login = (username: string) =>
    t.http.post('/api/v1/auth/token').send({ username, password: 'not-the-password' });

  it('should answer every call under load while Redis goes away and comes back, with no 5xx', async () => {
    const load = new Load(t, 6);
    await load.answers(150);
    expect(await keysUnder(direct, prefix)).not.toEqual([]); // counting in Redis

    await proxy.cut();
    await load.answers(300);
    const degraded = await readiness();
    expect(degraded).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, redis: { status: 'up', degraded: expect.stringContaining('in-process') } },
    });

    await direct.del(...(await keysUnder(direct, prefix)));
    await proxy.restore();
    while ((await readiness()).info.redis.degraded !== undefined) await load.answers(20);
    await load.answers(150);
    expect(await keysUnder(direct, prefix)).not.toEqual([]); // counting in Redis again

    const outcomes = await load.stop();
    const failures = outcomes.filter(({ status }) => status >= 500);
    expect(failures).toEqual([]);
    for (const { status, text } of outcomes.filter(({ status }) => status >= 400)) assertErrorBody(text, status);
    expect(outcomes.filter(({ status }) => status === 200).length).toBeGreaterThan(outcomes.length / 2);
  });

  it('should keep limiting logins in-process while Redis is unreachable', async () => {
    await proxy.cut();
    try {
      const username = `outage-${uniqueName()}`;
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 7; attempt++) statuses.push((await login(username)).status);
      // AUTH_RATE_LIMIT is 5: without counting, every attempt would be a 401
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
      await t.callBean('profileSearchServiceImpl', 'getRepository', []).expect(200);
    } finally {
      await proxy.restore();
    }
  });
});

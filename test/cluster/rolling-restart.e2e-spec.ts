import { EmbeddedMongoServer } from '@ccb/embedded-mongo';
import { Client } from '@stomp/stompjs';
import { MongoClient } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import WebSocket from 'ws';
import { eventually } from '../support/eventually';
import { requireFreshBuild, ServerProcess, startServerProcess } from '../support/server-process';
import { redisEnvironment, relayEnvironment, requireService, uniqueName } from '../support/shared-services';
import { freePort, Nginx, startNginx } from './support/nginx';

const DEMO_PASSWORD = 'plants-demo-2024';
const BUYERS = ['alice', 'bruno', 'chiara'];
const GUESTS = 3;
const JOBS = 'jobsManagementServiceImpl';
const CATALOGUE = 'catalogueAdminServiceImpl';
/** Every subscriber answer waits this long, so that deliveries are under way when an instance stops. */
const SUBSCRIBER_DELAY_MS = 300;

const began = Date.now();
/** Progress on stderr: the test runs for a minute or more, and a slow machine shows where. */
const progress = (what: string) => process.stderr.write(`rolling restart, ${(Date.now() - began) / 1000} s: ${what}\n`);

/** A request's answer (or the client's error), and when it came, in seconds since the test began. */
type Outcome = { what: string; status: number | string; at: number };

/** A New Plant subscriber that answers every post 204 after a while and keeps the product ids it was told of. */
async function slowSubscriber() {
  const productIds: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      productIds.push(String((JSON.parse(body) as { data: { id: string } }).data.id));
      setTimeout(() => res.writeHead(204).end(), SUBSCRIBER_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { url, productIds, close };
}

/** One instance as `npm start` runs it (`src/main.ts`), on a fixed port so that nginx finds it again after a restart. */
class Instance {
  private process?: ServerProcess;
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'ccb-rolling-'));

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.process = startServerProcess(
      { ...this.env, PORT: String(this.port), DATA_DIR: this.dataDir },
      { built: true },
    );
    if (!(await this.process.logged('Listening on'))) {
      throw new Error(`The instance on ${this.port} did not start: ${this.process.output().stderr}`);
    }
  }

  /** SIGTERM, and resolves with how the process ended once it has. */
  async terminate(): Promise<string | null> {
    this.process!.child.kill('SIGTERM');
    await this.process!.exited;
    return this.process!.child.signalCode;
  }

  async stop(): Promise<void> {
    await this.process?.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A STOMP client as a browser runs one: it reconnects by itself and subscribes again on every connection. */
class FollowingClient {
  connections = 0;
  /** Ids of the categories created while it followed `/topic/catalogue`. */
  readonly categoryIds: string[] = [];
  private readonly client: Client;

  constructor(url: string, token?: string) {
    this.client = new Client({
      webSocketFactory: () => new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, ['v12.stomp']),
      connectHeaders: token ? { Authorization: `Bearer ${token}` } : {},
      reconnectDelay: 200,
      debug: () => undefined,
    });
    this.client.onConnect = () => {
      this.connections++;
      this.client.subscribe('/topic/catalogue', (message) => {
        const event = JSON.parse(message.body) as { event: string; id: string };
        if (event.event === 'category.created') this.categoryIds.push(event.id);
      });
    };
    this.client.activate();
  }

  async stop(): Promise<void> {
    await this.client.deactivate();
  }
}

/**
 * Issue 25, "restarts that nobody notices": two instances (as `npm start` runs them) sharing one database,
 * RabbitMQ and Redis behind Debian's nginx with the README's recipe; guests, logged-in buyers and an ADMIN call REST
 * and follow STOMP through nginx without a pause while each instance in turn is stopped by SIGTERM and started
 * again.
 */
describe('A rolling restart behind nginx', () => {
  let db: EmbeddedMongoServer;
  let nginx: Nginx;
  let subscriber: Awaited<ReturnType<typeof slowSubscriber>>;
  let instances: Instance[];
  let mongo: MongoClient;
  let dbName: string;
  const outcomes: Outcome[] = [];
  const created: string[] = [];
  const followers: FollowingClient[] = [];
  let jobSteps = 0;
  let jobId: string;
  let admin: string;
  const endings: (string | null)[] = [];

  const viaNginx = () => request(nginx.url);
  const recorded = async (what: string, call: () => Promise<{ status: number }>) => {
    try {
      const { status } = await call();
      outcomes.push({ what, status, at: (Date.now() - began) / 1000 });
      return status;
    } catch (error) {
      outcomes.push({ what, status: (error as Error).message, at: (Date.now() - began) / 1000 });
      return undefined;
    }
  };
  const callBean = (beanId: string, functionName: string, args: unknown[], token?: string) => {
    const call = viaNginx().post('/api/v1/bean/request').set('Site-Context', 'default').set('Lang-Context', 'en');
    if (token) call.set('Authorization', `Bearer ${token}`);
    return call.send({ beanId, functionName, args });
  };
  /** The body of a 2xx answer; otherwise throws with the answer, which says what went wrong. */
  const ok = async (call: request.Test) => {
    const res = await call;
    if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string } & Record<string, unknown>;
  };
  const login = async (username: string, password: string) => {
    return String((await ok(viaNginx().post('/api/v1/auth/token').send({ username, password }))).token);
  };

  /** Runs `step` again and again, one at a time, until `running()` is false. */
  const loop = async (running: () => boolean, step: () => Promise<unknown>) => {
    while (running()) await step();
  };

  /**
   * Resolves once nginx, after `since` log lines, has passed a request to `instance` and had a 2xx from it: nginx
   * (open source) does not poll readiness, and holds an instance it failed to reach out of the rotation for the
   * recipe's `fail_timeout`. Stopping the other instance before would leave it no instance to send to.
   */
  const backInRotation = (instance: Instance, since: number) =>
    eventually(
      async () => nginx.accessLog().slice(since),
      (lines) => lines.some((line) => line.startsWith('2') && line.includes(` ${instance.address} 2`)),
      `nginx sends to ${instance.address} again`,
    );

  beforeAll(async () => {
    requireFreshBuild();
    await Promise.all([requireService('rabbitmq'), requireService('redis')]);
    db = await EmbeddedMongoServer.start({ port: 0, host: '127.0.0.1', dbPath: undefined });
    subscriber = await slowSubscriber();
    dbName = uniqueName();
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      MONGODB_URI: `${db.uri.replace(/\/$/, '')}/${dbName}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      SEED_DEMO: 'true',
      BEAN_RATE_LIMIT: '1000000', // every guest comes from nginx's address
      NEW_PLANT_WEBHOOK_URLS: subscriber.url,
      NEW_PLANT_WEBHOOK_TOKEN: 'subscriber-token',
      ...relayEnvironment(dbName),
      ...redisEnvironment(`test:${dbName}:`),
    };
    instances = [new Instance(await freePort(), env), new Instance(await freePort(), env)];
    // One after the other: the first seeds the demo shop, the second finds it.
    for (const instance of instances) await instance.start();
    progress('both instances started');
    nginx = await startNginx(instances.map((instance) => instance.port));
    mongo = await MongoClient.connect(db.uri);

    admin = await login('admin', 'admin-change-me');
    const buyers = await Promise.all(BUYERS.map((buyer) => login(buyer, DEMO_PASSWORD)));
    jobId = (await ok(callBean(JOBS, 'createJob', [{ type: 'rolling', total: 1_000_000 }], admin))).id;
    for (let i = 0; i < GUESTS; i++) followers.push(new FollowingClient(nginx.url));
    for (const token of buyers) followers.push(new FollowingClient(nginx.url, token));
    await eventually(
      async () => followers.filter((follower) => follower.connections > 0).length,
      (n) => n === followers.length,
      'every STOMP client connects',
    );
    progress('clients connected; load starts');

    let running = true;
    const load = [
      ...Array.from({ length: GUESTS }, () =>
        loop(
          () => running,
          () =>
            recorded('guest filter', () => callBean('ecomRemainsSearchEngineServiceImpl', 'getProductsListFilter', [])),
        ),
      ),
      loop(
        () => running,
        () => recorded('guest asyncapi', () => viaNginx().get('/api/v1/asyncapi.json')),
      ),
      ...buyers.map((token) =>
        loop(
          () => running,
          () => recorded('buyer cart', () => callBean('shoppingCartServiceImpl', 'getCartDTO', [], token)),
        ),
      ),
      loop(
        () => running,
        async () => {
          const status = await recorded('job step', () => callBean(JOBS, 'incrementJob', [jobId, 1], admin));
          if (status === 200) jobSteps++;
        },
      ),
      loop(
        () => running,
        async () => {
          const res = await recorded('product', async () => {
            const answer = await viaNginx()
              .post('/api/v1/catalogue/products')
              .set('Authorization', `Bearer ${admin}`)
              .set('Lang-Context', 'en')
              .send({ name: `Rolling plant ${created.length}`, published: true });
            if (answer.status === 201) created.push((answer.body as { id: string }).id);
            return answer;
          });
          if (res !== undefined) await new Promise((resolve) => setTimeout(resolve, 200));
        },
      ),
    ];

    for (const instance of instances) {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // load on both instances first
      endings.push(await instance.terminate());
      const since = nginx.accessLog().length; // what the old process answered is logged by now
      progress(`${instance.address} stopped`);
      await instance.start();
      progress(`${instance.address} started`);
      await backInRotation(instance, since);
      progress(`${instance.address} back in nginx's rotation`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await Promise.all(load);
    const retried = nginx.accessLog().filter((line) => line.includes(', '));
    const refusals = retried.map((line) => line.split(' ').find((word) => /^\d{3},$/.test(word)));
    progress(`${outcomes.length} requests answered; retried by nginx: ${retried.length} (${refusals.join(' ')})`);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(followers.map((follower) => follower.stop()));
    await nginx?.stop();
    await Promise.all((instances ?? []).map((instance) => instance.stop()));
    await mongo?.close();
    await subscriber?.close();
    await db?.stop();
  });

  it('should have stopped each instance by its signal, not by the shutdown bound', () => {
    expect(endings).toEqual(['SIGTERM', 'SIGTERM']);
  });

  it('should answer every request of guests, buyers and the ADMIN, none failed', () => {
    const failed = outcomes.filter((outcome) => typeof outcome.status !== 'number' || outcome.status >= 400);
    expect(failed).toEqual([]);
    for (const what of ['guest filter', 'guest asyncapi', 'buyer cart', 'job step', 'product']) {
      expect(outcomes.filter((outcome) => outcome.what === what).length).toBeGreaterThan(5);
    }
  });

  it('should have retried on the other instance what a stopping one refused (the recipe at work)', () => {
    const retried = nginx.accessLog().filter((line) => line.includes(', '));
    expect(retried.length).toBeGreaterThan(0);
  });

  it('should bring every STOMP client back, subscribed, to receive an event published after the restarts', async () => {
    expect(followers.every((follower) => follower.connections >= 2)).toBe(true);
    const { id } = await ok(callBean(CATALOGUE, 'createCategory', [{ name: 'After the restarts' }], admin));
    await eventually(
      async () => followers.filter((follower) => follower.categoryIds.includes(id)).length,
      (n) => n === followers.length,
      'every STOMP client receives the category created after the restarts',
    );
  });

  it('should keep the job the ADMIN stepped through both restarts, each step counted once, and finish it', async () => {
    const stepped = await ok(callBean(JOBS, 'incrementJob', [jobId, 0], admin));
    expect(stepped).toMatchObject({ status: 'IN_PROGRESS', current: jobSteps });
    expect(jobSteps).toBeGreaterThan(5);
    expect(await ok(callBean(JOBS, 'toDone', [jobId], admin))).toMatchObject({ status: 'DONE' });
  });

  it('should deliver the New Plant webhook of every product created, none lost', async () => {
    const deliveries = mongo.db(dbName).collection('webhook_deliveries');
    await eventually(
      () => deliveries.countDocuments({ state: { $ne: 'DELIVERED' } }),
      (undelivered) => undelivered === 0,
      'every webhook delivered',
    );
    expect(await deliveries.countDocuments()).toBe(created.length);
    expect(new Set(subscriber.productIds)).toEqual(new Set(created));
  });
});

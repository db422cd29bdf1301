import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { Role } from '../../src/common/principal';
import { Job } from '../../src/services/jobs/job.schema';
import { LeaseLocks } from '../../src/services/jobs/lease-locks';
import { INTERRUPTED_REASON } from '../../src/services/jobs/jobs.service';
import { DeliveryState, WebhookDelivery } from '../../src/services/webhooks/webhook-delivery.schema';
import { Cluster, startCluster } from '../support/cluster';
import { TestApp } from '../support/test-app';
import { InstanceProcess, startInstanceProcess } from './support/instance-process';
import { eventually } from '../support/eventually';

/** Short, so that the test outlasts a lease; still long against a few requests on a loaded machine. */
const LEASE_MS = 3000;
const JOBS = 'jobsManagementServiceImpl';

/** A New Plant subscriber that answers 500 to the first delivery and 204 to the others. */
async function flakySubscriber() {
  const deliveries: { idempotencyKey?: string; body: { id: string } }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      deliveries.push({ idempotencyKey: req.headers['idempotency-key'] as string, body: JSON.parse(text) });
      res.writeHead(deliveries.length === 1 ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, deliveries, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('Work shared by two instances: jobs, webhooks, sitemaps', () => {
  let cluster: Cluster;
  let b: TestApp;
  /** Instance A, a process of its own so that it can be SIGKILLed; B runs in the test's process. */
  let a: InstanceProcess;
  let subscriber: Awaited<ReturnType<typeof flakySubscriber>>;
  let admin: string;

  beforeAll(async () => {
    subscriber = await flakySubscriber();
    const env = {
      JOB_LEASE_MS: String(LEASE_MS),
      NEW_PLANT_WEBHOOK_URLS: subscriber.url,
      NEW_PLANT_WEBHOOK_TOKEN: 'subscriber-token',
      NEW_PLANT_WEBHOOK_BACKOFF_MS: '1500',
    };
    cluster = await startCluster({ size: 1, env });
    [b] = cluster.instances;
    admin = b.tokenFor(Role.ADMIN);
    a = await startInstanceProcess(cluster.env);
  });
  afterAll(async () => {
    await a?.kill();
    await cluster?.stop();
    await subscriber?.close();
  });

  const callA = (beanId: string, fn: string, args: unknown[]) =>
    request(a.url)
      .post('/api/v1/bean/request')
      .set('Authorization', `Bearer ${admin}`)
      .set('Lang-Context', 'en')
      .set('Site-Context', 'default')
      .send({ beanId, functionName: fn, args });
  const jobOnB = async (id: string) => {
    const res = await b.callBean(JOBS, 'searchJobs', [{ query: { type: 'slow' } }], { token: admin }).expect(200);
    type Listed = { id: string; status: string; reason: string | null; current: number };
    return (res.body.items as Listed[]).find((job) => job.id === id)!;
  };

  it('should serve on one instance the sitemap generated through the other, refusing another on both', async () => {
    const page = [{ pageUrl: 'home', published: true }];
    await b.callBean('pageManagementServiceImpl', 'createPage', page, { token: admin }).expect(200);
    await b.callBean('pageManagementServiceImpl', 'publishToUrl', [{ pageName: 'home' }], { token: admin }).expect(200);
    await b.http.get('/api/v1/sites/default/sitemap.xml').expect(404);

    const onA = (fn: string, args: unknown[]) => callA('sitemapGeneratorServiceImpl', fn, args);
    const onB = (fn: string, args: unknown[]) => b.callBean('sitemapGeneratorServiceImpl', fn, args, { token: admin });
    const generate = (on: typeof onA) => on('generateSiteMap', [{ urlPrefix: 'https://shop.example.com' }]);
    const conflict = { status: 409, error: 'Conflict', message: expect.stringContaining('is being generated') };

    // While a generation holds the site's lock (here taken through B's lock store), both instances refuse another.
    const held = (await b.app.get(LeaseLocks).tryAcquire('sitemap:default'))!;
    expect((await onA('isWorkInProgress', []).expect(200)).body).toBe(true);
    expect((await generate(onA).expect(409)).body).toMatchObject(conflict);
    expect((await generate(onB).expect(409)).body).toMatchObject(conflict);
    await held.release();

    // Three generations asked at once, two through A and one through B: one runs at a time, the others are refused.
    const answers = await Promise.all([generate(onA), generate(onA), generate(onB)]);
    expect(answers.map((res) => res.status)).toContain(200);
    for (const refused of answers.filter((res) => res.status !== 200)) {
      expect(refused.body).toMatchObject({ ...conflict, requestId: expect.any(String) });
    }
    await eventually(
      async () => (await onB('isWorkInProgress', []).expect(200)).body,
      (busy) => !busy,
      'done',
    );

    const servedByB = await b.http.get('/api/v1/sites/default/sitemap.xml').expect(200);
    expect(servedByB.headers['content-type']).toMatch(/xml/);
    expect(servedByB.text).toContain('https://shop.example.com/home');
    const servedByA = await request(a.url).get('/api/v1/sites/default/sitemap.xml').expect(200);
    expect(servedByA.text).toBe(servedByB.text);
  });

  describe('when instance A is SIGKILLed', () => {
    let jobId: string;
    let firstAttemptBy: string;
    const outbox = () => b.app.get<Model<WebhookDelivery>>(getModelToken(WebhookDelivery.name));

    beforeAll(async () => {
      jobId = (await callA('slowJob', 'start', [10_000]).expect(200)).body.id;
      const product = { name: 'Monstera deliciosa', published: true };
      const products = request(a.url).post('/api/v1/catalogue/products').set('Authorization', `Bearer ${admin}`);
      await products.send(product).expect(201);
      await eventually(
        () => jobOnB(jobId),
        (job) => job.current >= 2,
        'the job makes progress',
      );
      const pending = await eventually(
        () => outbox().findOne().lean(),
        (row) => (row?.attemptLog.length ?? 0) === 1,
        'the first webhook attempt is recorded',
      );
      expect(pending!.attemptLog[0]).toMatchObject({ status: 500, error: 'HTTP 500' });
      firstAttemptBy = pending!.attemptLog[0].instance;
      await a.kill();
    });

    it('should leave the job A ran alone until its lease expired, then fail it', async () => {
      // The lease (renewed until the kill) has not expired yet: the start-up rule leaves the job alone.
      await b.callBean(JOBS, 'setUnfinishedJobsToFailed', [], { token: admin }).expect(200);
      expect(await jobOnB(jobId)).toMatchObject({ status: 'IN_PROGRESS' });

      // Then B's periodic sweep fails it, once the lease A last renewed has passed.
      const failed = await eventually(
        () => jobOnB(jobId),
        (job) => job.status === 'FAILED',
        'the job fails',
      );
      expect(failed.reason).toBe(INTERRUPTED_REASON);
      const stored = await b.app.get<Model<Job>>(getModelToken(Job.name)).findById(jobId).lean();
      expect(stored!.leaseOwner).toContain(`:${a.pid}:`);
      expect(stored!.finishedAt!.getTime()).toBeGreaterThan(stored!.leaseUntil!.getTime());
    });

    it('should deliver on B the webhook retry whose first attempt A made', async () => {
      // The instance that announced the plant attempts at once; B only polls each second.
      expect(firstAttemptBy).toContain(`:${a.pid}:`);
      const delivered = await eventually(
        () => outbox().findOne().lean(),
        (row) => row?.state === DeliveryState.DELIVERED,
        'the retry is delivered',
      );
      expect(delivered!.attemptLog).toHaveLength(2);
      expect(delivered!.attemptLog[1]).toMatchObject({ status: 204 });
      expect(delivered!.attemptLog[1].instance).not.toBe(firstAttemptBy);
      expect(subscriber.deliveries).toHaveLength(2);
      expect(subscriber.deliveries[1].idempotencyKey).toBe(subscriber.deliveries[0].idempotencyKey);
      expect(subscriber.deliveries[1].body.id).toBe(subscriber.deliveries[0].body.id);
    });
  });
});

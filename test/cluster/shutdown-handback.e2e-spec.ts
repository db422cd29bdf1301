import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { Role } from '../../src/common/principal';
import { Job } from '../../src/services/jobs/job.schema';
import { SHUTDOWN_REASON } from '../../src/services/jobs/jobs.service';
import { DeliveryState, WebhookDelivery } from '../../src/services/webhooks/webhook-delivery.schema';
import { LEASE_MS as WEBHOOK_CLAIM_MS } from '../../src/services/webhooks/webhook-outbox';
import { Cluster, startCluster } from '../support/cluster';
import { TestApp } from '../support/test-app';
import { InstanceProcess, startInstanceProcess } from './support/instance-process';
import { eventually } from '../support/eventually';

/** Far longer than the test: only the shutdown itself can fail the job, neither a sweep nor a start-up. */
const LEASE_MS = 600_000;
const JOBS = 'jobsManagementServiceImpl';

type Listed = { id: string; status: string; reason: string | null; current: number };

/** A New Plant subscriber that holds the first delivery open without answering and answers 204 to the others. */
async function stallingSubscriber() {
  const deliveries: { idempotencyKey?: string; at: number }[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      deliveries.push({ idempotencyKey: req.headers['idempotency-key'] as string, at: Date.now() });
      if (deliveries.length === 1) held.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { url, deliveries, close };
}

/**
 * Issue 25: an instance stopped by SIGTERM hands back what it holds instead of leaving it to a lease: the jobs its
 * handlers run are failed at once (a handler cannot move), the webhook post under way is due again at once.
 */
describe('Work handed back at shutdown', () => {
  let cluster: Cluster;
  let b: TestApp;
  let a: InstanceProcess;
  let admin: string;
  let subscriber: Awaited<ReturnType<typeof stallingSubscriber>>;
  let jobId: string;
  let terminatedAt: number;

  const outbox = () => b.app.get<Model<WebhookDelivery>>(getModelToken(WebhookDelivery.name));
  const jobOnB = async (id: string): Promise<Listed | undefined> => {
    const res = await b.callBean(JOBS, 'searchJobs', [{ query: { type: 'slow' } }], { token: admin }).expect(200);
    return (res.body.items as Listed[]).find((job) => job.id === id);
  };
  const onA = (path: string) =>
    request(a.url).post(path).set('Authorization', `Bearer ${admin}`).set('Lang-Context', 'en');

  beforeAll(async () => {
    subscriber = await stallingSubscriber();
    const env = {
      JOB_LEASE_MS: String(LEASE_MS),
      NEW_PLANT_WEBHOOK_URLS: subscriber.url,
      NEW_PLANT_WEBHOOK_TOKEN: 'subscriber-token',
    };
    cluster = await startCluster({ size: 1, env });
    [b] = cluster.instances;
    admin = b.tokenFor(Role.ADMIN);
    a = await startInstanceProcess(cluster.env);

    const started = await onA('/api/v1/bean/request')
      .set('Site-Context', 'default')
      .send({ beanId: 'slowJob', functionName: 'start', args: [10_000] })
      .expect(200);
    jobId = started.body.id;
    await onA('/api/v1/catalogue/products').send({ name: 'Monstera deliciosa', published: true }).expect(201);
    await eventually(
      () => jobOnB(jobId),
      (job) => (job?.current ?? 0) >= 2,
      'the job makes progress',
    );
    await eventually(
      async () => subscriber.deliveries.length,
      (n) => n === 1,
      'A posts the webhook',
    );

    await a.terminate();
    terminatedAt = Date.now();
  });
  afterAll(async () => {
    await a?.kill();
    await cluster?.stop();
    await subscriber?.close();
  });

  it('should fail the job A ran, with the shutdown as its reason, before its lease expired', async () => {
    const job = await jobOnB(jobId);
    expect(job).toMatchObject({ status: 'FAILED', reason: SHUTDOWN_REASON });
    const stored = await b.app.get<Model<Job>>(getModelToken(Job.name)).findById(jobId).lean();
    expect(stored!.leaseOwner).toContain(`:${a.pid}:`);
    expect(stored!.finishedAt!.getTime()).toBeLessThan(stored!.leaseUntil!.getTime());
  });

  it('should leave the webhook delivery A was posting due at once, and B deliver it with the same key', async () => {
    const handedBack = await outbox().findOne().lean();
    if (handedBack!.state === DeliveryState.PENDING) {
      expect(handedBack).toMatchObject({ attempts: 0, attemptLog: [] });
      expect(handedBack!.nextAttemptAt.getTime()).toBeLessThanOrEqual(terminatedAt); // not a lease in the future
    } else {
      // B polls each second and may have posted it while A was still closing: before A's claim would have expired
      const firstPost = subscriber.deliveries[0].at;
      expect(handedBack!.attemptLog[0].at.getTime()).toBeLessThan(firstPost + WEBHOOK_CLAIM_MS);
    }

    const delivered = await eventually(
      () => outbox().findOne().lean(),
      (row) => row?.state === DeliveryState.DELIVERED,
      'B delivers the webhook',
    );
    expect(delivered!.attemptLog).toHaveLength(1);
    expect(delivered!.attemptLog[0]).toMatchObject({ status: 204 });
    expect(delivered!.attemptLog[0].instance).not.toContain(`:${a.pid}:`);
    expect(subscriber.deliveries).toHaveLength(2);
    expect(subscriber.deliveries[1].idempotencyKey).toBe(subscriber.deliveries[0].idempotencyKey);
  });
});

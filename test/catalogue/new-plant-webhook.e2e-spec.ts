import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role } from '../../src/common/principal';
import { DeliveryState, WebhookDelivery } from '../../src/services/webhooks/webhook-delivery.schema';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = 'new-plant-subscriber-token';
const BACKOFF_MS = 40;

interface Delivery {
  at: number;
  answeredAt?: number;
  authorization?: string;
  idempotencyKey?: string;
  body: { event: string; id: string; data: { id: string; name: string } };
}

interface Answer {
  status: number;
  /** The answer waits until this settles. */
  hold?: Promise<void>;
}

/** A subscriber that gives the answers in `script` in turn (the last one from then on). */
async function receiver(script: Answer[]) {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const { authorization } = request.headers;
      const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
      const delivery: Delivery = { at: Date.now(), authorization, idempotencyKey, body: JSON.parse(text) };
      deliveries.push(delivery);
      const { status, hold } = script[Math.min(deliveries.length - 1, script.length - 1)];
      void Promise.resolve(hold).then(() => {
        delivery.answeredAt = Date.now();
        response.writeHead(status).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/new-plant`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url, deliveries, close };
}

/** Generous: on a loaded machine each attempt is a few database round trips and a request. */
async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('New Plant webhook', () => {
  let release!: () => void;
  const firstAnswer = new Promise<void>((resolve) => (release = resolve));
  let t: TestApp;
  let flaky: Awaited<ReturnType<typeof receiver>>;
  let steady: Awaited<ReturnType<typeof receiver>>;
  let admin: string;

  beforeAll(async () => {
    flaky = await receiver([{ status: 503, hold: firstAnswer }, { status: 500 }, { status: 204 }]);
    steady = await receiver([{ status: 200 }]);
    t = await startTestApp({
      env: {
        NEW_PLANT_WEBHOOK_URLS: `${flaky.url},${steady.url}`,
        NEW_PLANT_WEBHOOK_TOKEN: TOKEN,
        NEW_PLANT_WEBHOOK_BACKOFF_MS: String(BACKOFF_MS),
        NEW_PLANT_WEBHOOK_MAX_ATTEMPTS: '5',
      },
    });
    admin = t.tokenFor(Role.ADMIN);
  });

  afterAll(async () => {
    await t.stop();
    await Promise.all([flaky.close(), steady.close()]);
  });

  const createProduct = (body: object, token = admin) =>
    t.http.post('/api/v1/catalogue/products').set('Authorization', `Bearer ${token}`).send(body);

  it('should announce a new plant to every subscriber with the bearer token, retrying with backoff', async () => {
    // The first delivery is held unanswered until the product is created: creating never waits for subscribers.
    const created = await createProduct({ name: 'Begonia maculata', published: true, countryOfOrigin: 'BR' });
    expect(created.status).toBe(201);
    expect(flaky.deliveries.every((delivery) => delivery.answeredAt === undefined)).toBe(true);
    release();

    await until(() => flaky.deliveries.length === 3 && steady.deliveries.length === 1);
    for (const delivery of [...flaky.deliveries, ...steady.deliveries]) {
      expect(delivery.authorization).toBe(`Bearer ${TOKEN}`);
      expect(delivery.body).toMatchObject({
        event: 'New Plant',
        data: { id: created.body.id, name: 'Begonia maculata' },
      });
    }
    expect(new Set(flaky.deliveries.map((delivery) => delivery.body.id)).size).toBe(1);
    // One key per delivery (subscriber), the same on each of its attempts.
    expect(new Set(flaky.deliveries.map((delivery) => delivery.idempotencyKey)).size).toBe(1);
    expect(flaky.deliveries[0].idempotencyKey).toMatch(/^[0-9a-f]{24}$/);
    expect(steady.deliveries[0].idempotencyKey).not.toBe(flaky.deliveries[0].idempotencyKey);
    const [first, second, third] = flaky.deliveries;
    expect(second.at - first.answeredAt!).toBeGreaterThanOrEqual(BACKOFF_MS - 5);
    expect(third.at - second.answeredAt!).toBeGreaterThanOrEqual(2 * BACKOFF_MS - 5);
    await new Promise((resolve) => setTimeout(resolve, 8 * BACKOFF_MS));
    expect(flaky.deliveries).toHaveLength(3);
  });

  it('should not announce drafts', async () => {
    const before = steady.deliveries.length;
    await createProduct({ name: 'Secret hybrid', published: false }).expect(201);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(steady.deliveries).toHaveLength(before);
  });

  it('should announce a draft once when an ADMIN publishes it through catalogueAdminServiceImpl', async () => {
    const admin = (fn: string, args: unknown[]) =>
      t.callBean('catalogueAdminServiceImpl', fn, args, { token: t.tokenFor(Role.ADMIN) }).expect(200);
    const draft = (await admin('createProduct', [{ name: 'Monstera adansonii' }])).body as { id: string };
    await new Promise((resolve) => setTimeout(resolve, 200));
    const announcing = (id: string) => steady.deliveries.filter((delivery) => delivery.body.data.id === id);
    expect(announcing(draft.id)).toHaveLength(0);

    await admin('publishProduct', [draft.id]);
    await until(() => announcing(draft.id).length === 1);
    expect(announcing(draft.id)[0].body).toMatchObject({ event: 'New Plant', data: { name: 'Monstera adansonii' } });
    await admin('publishProduct', [draft.id]);
    await admin('updateProduct', [draft.id, { description: 'Swiss cheese vine' }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(announcing(draft.id)).toHaveLength(1);
  });

  it('should let only an ADMIN create products, with a valid body', async () => {
    await createProduct({ name: 'Fern' }, t.tokenFor(Role.USER)).expect(403);
    await t.http.post('/api/v1/catalogue/products').send({ name: 'Fern' }).expect(401);
    await createProduct({ name: '' }).expect(400);
    await createProduct({ name: 'Fern', countryOfOrigin: 'Narnia' }).expect(400);
    await createProduct({ name: 'Fern', countryOfOrigin: 'XQ' }).expect(400);
    const unknownAttribute = { attributeId: '0123456789abcdef01234567', values: ['x'] };
    await createProduct({ name: 'Fern', attributes: [unknownAttribute] }).expect(400);
  });
});

describe('New Plant webhook across a restart', () => {
  it('should resume a pending delivery when the server starts again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ccb-webhook-'));
    const subscriber = await receiver([{ status: 503 }, { status: 204 }]);
    const env = {
      NEW_PLANT_WEBHOOK_URLS: subscriber.url,
      NEW_PLANT_WEBHOOK_TOKEN: TOKEN,
      NEW_PLANT_WEBHOOK_BACKOFF_MS: '1500',
      EMBEDDED_DB_IN_MEMORY: 'false',
      DATA_DIR: dataDir,
    };
    const outbox = (app: TestApp) => app.app.get<Model<WebhookDelivery>>(getModelToken(WebhookDelivery.name));
    try {
      const first = await startTestApp({ env });
      await first.http
        .post('/api/v1/catalogue/products')
        .set('Authorization', `Bearer ${first.tokenFor(Role.ADMIN)}`)
        .send({ name: 'Rhaphidophora tetrasperma', published: true })
        .expect(201);
      await until(() => subscriber.deliveries.length === 1);
      for (let i = 0; i < 500 && !(await outbox(first).findOne({ lastError: { $exists: true } })); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await first.stop();

      const second = await startTestApp({ env });
      try {
        await until(() => subscriber.deliveries.length === 2);
        const [failed, resumed] = subscriber.deliveries;
        expect(resumed.body.id).toBe(failed.body.id);
        expect(resumed.authorization).toBe(`Bearer ${TOKEN}`);
        for (let i = 0; i < 500 && (await outbox(second).findOne())?.state !== DeliveryState.DELIVERED; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const stored = await outbox(second).findOne().lean();
        expect(stored).toMatchObject({ state: DeliveryState.DELIVERED, attempts: 2 });
        expect(stored!.attemptLog).toEqual([
          expect.objectContaining({
            status: 503,
            error: 'HTTP 503',
            at: expect.any(Date),
            instance: expect.any(String),
          }),
          expect.objectContaining({ status: 204, at: expect.any(Date), instance: expect.any(String) }),
        ]);
        expect(stored!.attemptLog[0].instance).not.toBe(stored!.attemptLog[1].instance);
      } finally {
        await second.stop();
      }
    } finally {
      await subscriber.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

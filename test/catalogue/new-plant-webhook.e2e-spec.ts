import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = 'new-plant-subscriber-token';
const BACKOFF_MS = 40;

interface Delivery {
  at: number;
  authorization?: string;
  body: { event: string; id: string; data: { id: string; name: string } };
}

/** A subscriber that answers the statuses in `script` in turn (the last one from then on). */
async function receiver(script: { status: number; delayMs?: number }[]) {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      deliveries.push({ at: Date.now(), authorization: request.headers.authorization, body: JSON.parse(text) });
      const { status, delayMs = 0 } = script[Math.min(deliveries.length - 1, script.length - 1)];
      setTimeout(() => response.writeHead(status).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/new-plant`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url, deliveries, close };
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('New Plant webhook', () => {
  let t: TestApp;
  let flaky: Awaited<ReturnType<typeof receiver>>;
  let steady: Awaited<ReturnType<typeof receiver>>;
  let admin: string;

  beforeAll(async () => {
    flaky = await receiver([{ status: 503, delayMs: 400 }, { status: 500 }, { status: 204 }]);
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
    const started = Date.now();
    const created = await createProduct({ name: 'Begonia maculata', published: true, countryOfOrigin: 'BR' });
    const elapsed = Date.now() - started;
    expect(created.status).toBe(201);
    // The first delivery takes 400 ms to fail: the request did not wait for it.
    expect(elapsed).toBeLessThan(400);

    await until(() => flaky.deliveries.length === 3 && steady.deliveries.length === 1);
    for (const delivery of [...flaky.deliveries, ...steady.deliveries]) {
      expect(delivery.authorization).toBe(`Bearer ${TOKEN}`);
      expect(delivery.body).toMatchObject({
        event: 'New Plant',
        data: { id: created.body.id, name: 'Begonia maculata' },
      });
    }
    expect(new Set(flaky.deliveries.map((delivery) => delivery.body.id)).size).toBe(1);
    const [first, second, third] = flaky.deliveries.map((delivery) => delivery.at);
    expect(second - first).toBeGreaterThanOrEqual(400 + BACKOFF_MS - 5);
    expect(third - second).toBeGreaterThanOrEqual(2 * BACKOFF_MS - 5);
    await new Promise((resolve) => setTimeout(resolve, 8 * BACKOFF_MS));
    expect(flaky.deliveries).toHaveLength(3);
  });

  it('should not announce drafts', async () => {
    const before = steady.deliveries.length;
    await createProduct({ name: 'Secret hybrid', published: false }).expect(201);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(steady.deliveries).toHaveLength(before);
  });

  it('should let only an ADMIN create products, with a valid body', async () => {
    await createProduct({ name: 'Fern' }, t.tokenFor(Role.USER)).expect(403);
    await t.http.post('/api/v1/catalogue/products').send({ name: 'Fern' }).expect(401);
    await createProduct({ name: '' }).expect(400);
    await createProduct({ name: 'Fern', countryOfOrigin: 'Narnia' }).expect(400);
  });
});

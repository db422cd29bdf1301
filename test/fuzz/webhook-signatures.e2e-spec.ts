import { getModelToken } from '@nestjs/mongoose';
import fc from 'fast-check';
import { Model } from 'mongoose';
import { createHmac } from 'node:crypto';
import { Order } from '../../src/services/orders/order.schema';
import { ProcessedWebhook } from '../../src/services/payments/processed-webhook.schema';
import { SIGNATURE_HEADER, signWebhook } from '../../src/services/payments/webhook-signature';
import { checkOut, createBuyer } from '../orders/support/order-calls';
import { createOffer } from '../orders/support/order-fixtures';
import { TestApp } from '../support/test-app';
import { anyJson, anyNumber, anyText, headerValue } from './support/arbitraries';
import { assertCleanAnswer, assertHealthy, FuzzClient, startFuzzApp } from './support/fuzz-http';
import { checkProperty, fuzzRuns, fuzzTimeout } from './support/fuzz-property';

/**
 * The providers' signed webhooks under random and malformed signature headers and bodies: a DESIGN §3 400/401 before
 * anything is read or changed (no event recorded, no order touched), never a 5xx; correctly signed garbage is a 4xx.
 */
const RUNS = fuzzRuns(150);
const TIMEOUT = fuzzTimeout(RUNS, 40);

interface Endpoint {
  path: string;
  secret: (t: TestApp) => string;
}

const ENDPOINTS: Endpoint[] = [
  { path: '/api/v1/cardpayment', secret: (t) => t.config.webhookSecrets.cardPayment },
  { path: '/api/v1/delivery/webhook', secret: (t) => t.config.webhookSecrets.delivery },
  { path: '/api/v1/altpayment/webhook', secret: (t) => t.config.altPayment.webhookSecret },
];

const EVENT_TYPES = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'parcel.delivered',
  'parcel.in_transit',
  'payment.paid',
];
const now = () => Math.floor(Date.now() / 1000);
const hex = (length: number) =>
  fc.string({ minLength: length, maxLength: length, unit: fc.constantFrom(...'0123456789abcdefABCDEF') });

/** A body an attacker would send: an event for the real order, or anything. */
function eventBody(orderId: string): fc.Arbitrary<string> {
  const event = fc.record({
    id: fc.oneof(anyText, anyJson),
    type: fc.oneof(fc.constantFrom(...EVENT_TYPES), anyText),
    data: fc.record(
      {
        id: anyText,
        orderId: fc.oneof(fc.constant(orderId), anyText),
        paymentId: anyText,
        parcelId: anyText,
        amount: anyNumber,
        currency: fc.constantFrom('EUR', 'usd', ''),
        status: fc.constantFrom('succeeded', 'requires_action', 'DELIVERED', 'PAID', 'canceled'),
      },
      { requiredKeys: [] },
    ),
  });
  return fc.oneof(
    { weight: 3, arbitrary: event.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: anyJson.map((value) => JSON.stringify(value) ?? '') },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  );
}

/** Signature headers that must all be refused for `body`: malformed, stale, or signed with another secret. */
function badSignature(body: string, secret: string): fc.Arbitrary<string | null> {
  const structured = fc
    .record({
      t: fc.oneof(fc.constant(now()), fc.integer({ min: 0, max: 2 ** 40 }), headerValue),
      v1: fc.array(fc.oneof(hex(64), hex(63), headerValue), { maxLength: 3 }),
      extra: fc.constantFrom('', ',v0=abc', ',t=1', ', ', ',v1'),
    })
    .map(({ t, v1, extra }) => [`t=${t}`, ...v1.map((v) => `v1=${v}`)].join(',') + extra);
  return fc.oneof(
    fc.constant(null),
    headerValue,
    structured,
    fc.string({ minLength: 1, maxLength: 20 }).map((other) => signWebhook(body, `${secret}${other}`)),
    fc.integer({ min: 301, max: 10 ** 6 }).map((age) => signWebhook(body, secret, now() - age)),
    fc.integer({ min: 301, max: 10 ** 6 }).map((ahead) => signWebhook(body, secret, now() + ahead)),
    // the right HMAC over the body alone, or under another timestamp than the header names
    fc.constant(`t=${now()},v1=${createHmac('sha256', secret).update(body).digest('hex')}`),
  );
}

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  '',
  'application/x-www-form-urlencoded',
);

describe('Fuzzing webhook signatures', () => {
  let t: TestApp;
  let client: FuzzClient;
  let orderId: string;
  let orders: Model<Order>;
  let processed: Model<ProcessedWebhook>;

  beforeAll(async () => {
    t = await startFuzzApp();
    client = new FuzzClient(t.url);
    orders = t.app.get<Model<Order>>(getModelToken(Order.name));
    processed = t.app.get<Model<ProcessedWebhook>>(getModelToken(ProcessedWebhook.name));
    const [order] = await checkOut(t, await createBuyer(t), [
      { sellerSkuId: (await createOffer(t)).sellerSkuId, quantity: 1 },
    ]);
    orderId = order.id;
  });
  afterAll(async () => {
    client.close();
    await t.stop();
  });

  const send = (endpoint: Endpoint, body: string, type: string, signature: string | null) => {
    const headers: Record<string, string> = {};
    if (type !== '') headers['Content-Type'] = type;
    if (signature !== null) headers[SIGNATURE_HEADER] = signature;
    return client.send({ path: endpoint.path, headers, body });
  };

  it(
    'should refuse any bad signature with a DESIGN §3 400/401 and change nothing',
    async () => {
      const before = await orders.find().lean().exec();
      const badCase = fc
        .constantFrom(...ENDPOINTS)
        .chain((endpoint) =>
          eventBody(orderId).chain((body) =>
            fc.tuple(fc.constant(endpoint), fc.constant(body), contentType, badSignature(body, endpoint.secret(t))),
          ),
        );
      await checkProperty(
        'webhooks: bad signatures',
        fc.asyncProperty(badCase, async ([endpoint, body, type, signature]) => {
          const response = await send(endpoint, body, type, signature);
          if (response.status !== 400 && response.status !== 401)
            throw new Error(`Answered ${response.status}: ${response.text}`);
          assertCleanAnswer(response);
        }),
        RUNS,
      );
      expect(await processed.countDocuments().exec()).toBe(0);
      expect(await orders.find().lean().exec()).toEqual(before);
      await assertHealthy(client);
    },
    TIMEOUT,
  );

  it(
    'should answer correctly signed bodies of any shape with a 200 or a DESIGN §3 4xx',
    async () => {
      const signedCase = fc
        .constantFrom(...ENDPOINTS)
        .chain((endpoint) =>
          fc.tuple(
            fc.constant(endpoint),
            eventBody(orderId),
            fc.constantFrom('application/json', 'application/json; charset=utf-8'),
          ),
        );
      await checkProperty(
        'webhooks: signed bodies of any shape',
        fc.asyncProperty(signedCase, async ([endpoint, body, type]) => {
          const response = await send(endpoint, body, type, signWebhook(body, endpoint.secret(t)));
          assertCleanAnswer(response, (status) => status === 200);
        }),
        RUNS,
      );
      await assertHealthy(client);
    },
    TIMEOUT,
  );
});

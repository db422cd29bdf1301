import { randomBytes } from 'node:crypto';
import { Role } from '../../src/common/principal';
import { signWebhook } from '../../src/services/payments';
import { AltPaymentSandbox } from '../../src/services/alt-payments/sandbox/alt-payment-sandbox';
import {
  Buyer,
  checkOut,
  cheapestRate,
  createBuyer,
  DEFAULT_ITEM_WEIGHT,
  OrderBody,
  orderCall,
} from '../orders/support/order-calls';
import { createOffer } from '../orders/support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'altPaymentServiceImpl';
const SECRET = 'alt-payment-secret-for-tests';
const now = () => Math.floor(Date.now() / 1000);

interface Started {
  paymentId: string;
  orderId: string;
  status: string;
  redirectUrl: string;
}

describe('altPaymentServiceImpl', () => {
  let t: TestApp;
  let admin: string;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await startTestApp({ env: { ALT_PAYMENT_API_KEY: 'ak_test_123', ALT_PAYMENT_WEBHOOK_SECRET: SECRET } });
    admin = t.tokenFor(Role.ADMIN);
    buyer = await createBuyer(t);
  });

  afterAll(() => t.stop());

  const call = (fn: string, args: unknown[], token = admin) => t.callBean(BEAN, fn, args, { token });
  const orderOf = async (id: string): Promise<OrderBody> =>
    (await orderCall(t, 'getOrder', [id], admin).expect(200)).body;
  /** Checkout approves the order at once (ORDER_APPROVAL=auto, the default). */
  const approvedOrder = async (price = 2000) => {
    const offer = await createOffer(t, { price });
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 2 }]);
    expect(order.status).toBe('APPROVED');
    return order;
  };
  const startAs = (token: string | undefined, orderId: string) => {
    const post = t.http.post('/api/v1/altpayment');
    return (token ? post.set('Authorization', `Bearer ${token}`) : post).send({ orderId });
  };
  const start = async (orderId: string): Promise<Started> => (await startAs(buyer.token, orderId).expect(201)).body;
  const answer = (payment: Started, outcome: 'approve' | 'decline') =>
    t.http.post(new URL(payment.redirectUrl).pathname).type('form').send({ outcome }).expect(303);
  const postWebhook = (body: string, signature: string) =>
    t.http
      .post('/api/v1/altpayment/webhook')
      .set('content-type', 'application/json')
      .set('webhook-signature', signature)
      .send(body);

  describe('access', () => {
    it.each([
      ['init', []],
      ['isAltPaymentKeysDefined', []],
      ['chargePayment', ['ap_x']],
      ['cancelPayment', ['ap_x']],
    ])('should refuse %s without a token (401) and to a user (403)', async (fn, args) => {
      await t.callBean(BEAN, fn, args).expect(401);
      expect((await call(fn, args, buyer.token).expect(403)).body.error).toBe('Access denied');
    });

    it('should let only the buyer start the payment of their order', async () => {
      const order = await approvedOrder();
      await startAs(undefined, order.id).expect(401);
      await startAs((await createBuyer(t)).token, order.id).expect(403);
      await startAs(buyer.token, 'nope').expect(400);
      expect((await orderOf(order.id)).status).toBe('APPROVED');
    });
  });

  describe('configuration', () => {
    it('should report its keys and initialise', async () => {
      expect((await call('isAltPaymentKeysDefined', []).expect(200)).body).toBe(true);
      expect((await call('init', []).expect(200)).body).toBeNull();
    });
  });

  describe('redirect, return and capture', () => {
    it('should take the buyer to the provider and back, then capture once and mark the order PAID', async () => {
      const order = await approvedOrder();
      const payment = await start(order.id);
      expect(payment).toMatchObject({ orderId: order.id, status: 'CREATED' });
      expect((await orderOf(order.id)).status).toBe('PAYMENT_PENDING');
      await startAs(buyer.token, order.id).expect(409);

      // The goods (2 × 20.00, no VAT configured) and the carrier's rate for the parcel: the whole total is charged.
      const shipping = (await cheapestRate(t, {
        fromCountry: 'NL',
        toCountry: 'NL',
        weightGrams: 2 * DEFAULT_ITEM_WEIGHT,
      }))!;
      const total = 4000 + shipping;
      expect(order.total).toBe(total);
      const page = (await t.http.get(new URL(payment.redirectUrl).pathname).expect(200)).text;
      expect(page).toContain(`€${(total / 100).toFixed(2)}`);
      const back = new URL((await answer(payment, 'approve')).headers.location);
      expect(back.pathname).toBe('/api/v1/altpayment/return');
      const { body: returned } = await t.http.get(`${back.pathname}${back.search}`).expect(200);
      expect(returned).toMatchObject({ paymentId: payment.paymentId, status: 'AUTHORIZED' });
      expect((await orderOf(order.id)).status).toBe('PAYMENT_PENDING');

      const { body: charged } = await call('chargePayment', [payment.paymentId]).expect(200);
      expect(charged).toMatchObject({ orderId: order.id, status: 'SUCCEEDED', orderStatus: 'PAID', amount: total });
      expect(charged.currency).toBe('EUR');
      expect((await call('chargePayment', [payment.paymentId]).expect(200)).body.orderStatus).toBe('PAID');
      await call('cancelPayment', [payment.paymentId]).expect(409);
      const timeLine = (await orderOf(order.id)).orderTimeLines.map((entry) => entry.status);
      expect(timeLine.filter((status) => status === 'PAID')).toHaveLength(1);
    });

    it('should refuse to refund or cancel an order paid this way (409: the provider cannot refund)', async () => {
      const order = await approvedOrder();
      const payment = await start(order.id);
      await answer(payment, 'approve');
      await call('chargePayment', [payment.paymentId]).expect(200);
      const refund = await orderCall(t, 'refundOrder', [{ orderId: order.id }], admin).expect(409);
      expect(refund.body).toMatchObject({ status: 409, message: expect.stringContaining('cannot refund') });
      await orderCall(t, 'cancelOrder', [order.id], buyer.token).expect(409);
      expect(await orderOf(order.id)).toMatchObject({ status: 'PAID', refunds: [] });
    });

    it('should start one payment of concurrent starts, and capture it once of concurrent charges', async () => {
      const order = await approvedOrder();
      const starts = await Promise.all(Array.from({ length: 5 }, () => startAs(buyer.token, order.id)));
      expect(starts.map(({ status }) => status).sort()).toEqual([201, 409, 409, 409, 409]);
      const payment = starts.find(({ status }) => status === 201)!.body as Started;
      await answer(payment, 'approve');
      const charges = await Promise.all(Array.from({ length: 5 }, () => call('chargePayment', [payment.paymentId])));
      for (const { status, body } of charges) expect([status, body.orderStatus]).toEqual([200, 'PAID']);
      const timeLine = (await orderOf(order.id)).orderTimeLines.map((entry) => entry.status);
      expect(timeLine.filter((status) => status === 'PAID')).toHaveLength(1);
    });

    it('should refuse to capture a payment the buyer has not approved, and unknown payments', async () => {
      const payment = await start((await approvedOrder()).id);
      expect((await call('chargePayment', [payment.paymentId]).expect(409)).body.message).toContain('CREATED');
      await call('chargePayment', ['ap_unknown']).expect(404);
      await call('cancelPayment', ['ap_unknown']).expect(404);
      await t.http.get('/api/v1/altpayment/return?paymentId=ap_unknown').expect(404);
    });
  });

  describe('decline and cancel', () => {
    it('should fail the order when the buyer declines (by webhook), and let them pay again', async () => {
      const order = await approvedOrder();
      await answer(await start(order.id), 'decline');
      expect((await orderOf(order.id)).status).toBe('PAYMENT_FAILED');

      const retry = await start(order.id);
      const { body: canceled } = await call('cancelPayment', [retry.paymentId]).expect(200);
      expect(canceled).toMatchObject({ status: 'FAILED', failureCode: 'canceled', orderStatus: 'PAYMENT_FAILED' });
      await t.http.post(new URL(retry.redirectUrl).pathname).type('form').send({ outcome: 'approve' }).expect(409);
    });
  });

  describe('webhook', () => {
    /** A payment the provider declined without its webhook arriving: only an authentic event settles it. */
    const declinedSilently = async () => {
      const order = await approvedOrder();
      const payment = await start(order.id);
      await t.app.get(AltPaymentSandbox).answer(payment.paymentId, false);
      const body = JSON.stringify({
        id: `evt_${randomBytes(8).toString('hex')}`,
        type: 'payment.declined',
        created: now(),
        data: { paymentId: payment.paymentId, orderId: order.id },
      });
      return { order, body };
    };

    it('should refuse forged, expired and malformed signatures with 400 and change nothing', async () => {
      const { order, body } = await declinedSilently();
      const refused = [
        signWebhook(body, 'not-the-secret-at-all'),
        signWebhook(body, SECRET, now() - 301),
        signWebhook(body, SECRET, now() + 301),
        signWebhook(body, SECRET).replace('v1=', 'v2='),
        'garbage',
      ];
      for (const signature of refused) await postWebhook(body, signature).expect(400);
      await postWebhook(`${body} `, signWebhook(body, SECRET)).expect(400);
      expect((await orderOf(order.id)).status).toBe('PAYMENT_PENDING');
    });

    it('should settle from an authentic event once and answer a replay as a duplicate', async () => {
      const { order, body } = await declinedSilently();
      const signature = signWebhook(body, SECRET);
      expect((await postWebhook(body, signature).expect(200)).body).toEqual({ received: true, duplicate: false });
      expect((await postWebhook(body, signature).expect(200)).body).toEqual({ received: true, duplicate: true });
      const timeLine = (await orderOf(order.id)).orderTimeLines.map((entry) => entry.status);
      expect(timeLine.slice(-2)).toEqual(['PAYMENT_PENDING', 'PAYMENT_FAILED']);
    });

    it('should acknowledge an authentic event about a payment the provider does not know', async () => {
      const data = { paymentId: 'ap_unknown', orderId: '0123456789abcdef01234567' };
      const body = JSON.stringify({ id: 'evt_unknown_payment', type: 'payment.captured', created: now(), data });
      expect((await postWebhook(body, signWebhook(body, SECRET)).expect(200)).body.duplicate).toBe(false);
    });

    it('should refuse a signed body that is not an event', async () => {
      const body = JSON.stringify({ id: 'evt_1', type: 'payment.refunded', created: now(), data: {} });
      await postWebhook(body, signWebhook(body, SECRET)).expect(400);
    });
  });
});

describe('altPaymentServiceImpl without keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(() => t.stop());

  it('should report the missing keys and refuse to work (409)', async () => {
    const admin = t.tokenFor(Role.ADMIN);
    expect((await t.callBean(BEAN, 'isAltPaymentKeysDefined', [], { token: admin }).expect(200)).body).toBe(false);
    await t.callBean(BEAN, 'init', [], { token: admin }).expect(409);
    await t.callBean(BEAN, 'chargePayment', ['ap_x'], { token: admin }).expect(409);
  });
});

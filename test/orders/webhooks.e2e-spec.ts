import { Role } from '../../src/common/principal';
import { signWebhook } from '../../src/services/payments';
import { CardPaymentSandbox } from '../../src/services/payments/sandbox/card-payment-sandbox';
import { startTestApp, TestApp } from '../support/test-app';
import { Buyer, checkOut, chooseCard, createBuyer, OrderBody, orderCall } from './support/order-calls';
import { createOffer } from './support/order-fixtures';

const SIGNATURE = 'webhook-signature';
const now = () => Math.floor(Date.now() / 1000);

describe('signed webhooks', () => {
  let t: TestApp;
  let admin: string;
  let buyer: Buyer;
  let secret: string;

  beforeAll(async () => {
    const env = { CARD_PAYMENT_WEBHOOK_SECRET: 'card-secret-for-tests', DELIVERY_WEBHOOK_SECRET: 'tracking-secret-x' };
    t = await startTestApp({ env });
    admin = t.tokenFor(Role.ADMIN);
    buyer = await createBuyer(t);
    secret = t.config.webhookSecrets.cardPayment;
  });

  afterAll(() => t.stop());

  const orderOf = async (id: string): Promise<OrderBody> => {
    return (await orderCall(t, 'getOrder', [id], admin).expect(200)).body;
  };

  /** An order (approved at checkout) with a card chosen, paid with `paymentMethodId`. */
  const paidWith = async (paymentMethodId: string) => {
    const offer = await createOffer(t, { price: 1500 });
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    const shippingAddress = { street: 'Main Street', city: 'Utrecht', postalCode: '3511AA', country: 'NL' };
    await chooseCard(t, buyer, order.id, paymentMethodId, { shippingAddress }).expect(200);
    const { body: payment } = await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    return { order, payment };
  };

  /** The provider settles the intent (as after a challenge) without its webhook reaching us. */
  const providerSettlesQuietly = (paymentIntentId: string, passed: boolean) =>
    t.app.get(CardPaymentSandbox).completeChallenge(paymentIntentId, passed);

  type Payment = { paymentIntentId: string; orderId: string; amount: number; currency: string };
  const cardEvent = (payment: Payment, overrides = {}) =>
    JSON.stringify({
      id: `evt_${Math.random().toString(16).slice(2)}`,
      type: 'payment_intent.succeeded',
      created: now(),
      data: {
        id: payment.paymentIntentId,
        orderId: payment.orderId,
        amount: payment.amount,
        currency: payment.currency,
        paymentMethodId: 'pm_x',
        status: 'SUCCEEDED',
      },
      ...overrides,
    });
  const postCard = (body: string, signature?: string) => {
    const call = t.http.post('/api/v1/cardpayment').set('content-type', 'application/json');
    return (signature === undefined ? call : call.set(SIGNATURE, signature)).send(body);
  };

  describe('/api/v1/cardpayment', () => {
    it('should refuse forged, expired, tampered and malformed signatures with 400 and change nothing', async () => {
      const { order, payment } = await paidWith('pm_card_threeDSecureRequired');
      const body = cardEvent(payment);
      const refusals = [
        signWebhook(body, 'not-the-secret'),
        // More than the 5 minutes' tolerance with a margin: on a slow run the server's clock ticks on meanwhile.
        signWebhook(body, secret, now() - 360),
        signWebhook(body, secret, now() + 360),
        signWebhook(cardEvent({ ...payment, amount: 1 }), secret),
        `t=${now()}`,
        'v1=abc',
        'garbage',
        undefined,
      ];
      for (const signature of refusals) {
        const response = await postCard(body, signature).expect(400);
        expect(response.body).toMatchObject({ status: 400, error: 'Bad Request' });
      }
      expect(await orderOf(order.id)).toMatchObject({ status: 'PAYMENT_PENDING' });
    });

    it('should leave an unpaid 3-D Secure order PAYMENT_PENDING on a forged but correctly signed success', async () => {
      const { order, payment } = await paidWith('pm_card_threeDSecureRequired');
      const body = cardEvent(payment);
      await postCard(body, signWebhook(body, secret)).expect(200, { received: true, duplicate: false });
      expect(await orderOf(order.id)).toMatchObject({ status: 'PAYMENT_PENDING' });
      const unknownIntent = cardEvent({ ...payment, paymentIntentId: 'pi_0123456789abcdef01234567' });
      const fresh = { received: true, duplicate: false };
      await postCard(unknownIntent, signWebhook(unknownIntent, secret)).expect(200, fresh);
      expect(await orderOf(order.id)).toMatchObject({ status: 'PAYMENT_PENDING' });
      await orderCall(t, 'obtain3DSecureLink', [order.id], buyer.token).expect(200);
    });

    it('should settle once when the same webhook arrives twice, also at the same moment', async () => {
      const { order, payment } = await paidWith('pm_card_threeDSecureRequired');
      await providerSettlesQuietly(payment.paymentIntentId, true);
      const body = cardEvent(payment);
      const signature = signWebhook(body, secret);

      const first = await Promise.all([postCard(body, signature), postCard(body, signature)]);
      expect(first.map((response) => response.status)).toEqual([200, 200]);
      expect(first.map((response) => response.body.duplicate).sort()).toEqual([false, true]);
      await postCard(body, signature).expect(200, { received: true, duplicate: true });

      const settled = await orderOf(order.id);
      expect(settled.status).toBe('PAID');
      expect(settled.orderTimeLines.filter((entry) => entry.status === 'PAID')).toHaveLength(1);
      await orderCall(t, 'pay', [order.id], buyer.token).expect(409);
    });

    it('should answer 500 when settling fails, and settle the redelivered event', async () => {
      const { order, payment } = await paidWith('pm_card_threeDSecureRequired');
      await providerSettlesQuietly(payment.paymentIntentId, true);
      const body = cardEvent(payment);
      const signature = signWebhook(body, secret);
      const sandbox = t.app.get(CardPaymentSandbox);
      const retrieve = jest.spyOn(sandbox, 'retrieve').mockRejectedValueOnce(new Error('provider unreachable'));
      try {
        const failed = await postCard(body, signature).expect(500);
        expect(failed.body).toMatchObject({ status: 500, path: '/api/v1/cardpayment' });
        expect(JSON.stringify(failed.body)).not.toContain('provider unreachable');
      } finally {
        retrieve.mockRestore();
      }
      expect((await orderOf(order.id)).status).toBe('PAYMENT_PENDING');
      await postCard(body, signature).expect(200, { received: true, duplicate: false });
      expect((await orderOf(order.id)).status).toBe('PAID');
    });

    it('should ignore an event that arrives after the order was settled the other way', async () => {
      const { order, payment } = await paidWith('pm_card_threeDSecureRequired');
      await t.http.post(new URL(payment.nextActionUrl).pathname).send({ outcome: 'complete' }).expect(200);
      const late = cardEvent(payment, { type: 'payment_intent.payment_failed' });
      await postCard(late, signWebhook(late, secret)).expect(200, { received: true, duplicate: false });
      const again = cardEvent(payment);
      await postCard(again, signWebhook(again, secret)).expect(200, { received: true, duplicate: false });
      const paid = await orderOf(order.id);
      expect(paid.status).toBe('PAID');
      expect(paid.orderTimeLines.filter((entry) => entry.status === 'PAID')).toHaveLength(1);
    });

    it('should ignore an authentic event that does not match the order', async () => {
      const { order, payment } = await paidWith('pm_card_threeDSecureRequired');
      const body = cardEvent({ ...payment, amount: payment.amount + 1 });
      await postCard(body, signWebhook(body, secret)).expect(200, { received: true, duplicate: false });
      expect((await orderOf(order.id)).status).toBe('PAYMENT_PENDING');
    });

    it('should refuse a signed body that is not a card event', async () => {
      const body = JSON.stringify({ id: 'evt_1', type: 'account.updated', created: now(), data: {} });
      await postCard(body, signWebhook(body, secret)).expect(400);
    });

    it('should fail the order when the challenge fails', async () => {
      const { order, payment } = await paidWith('pm_card_threeDSecureRequired');
      await t.http.post(new URL(payment.nextActionUrl).pathname).send({ outcome: 'fail' }).expect(200);
      expect(await orderOf(order.id)).toMatchObject({ status: 'PAYMENT_FAILED' });
    });

    it('should charge once when the buyer pays twice at the same moment', async () => {
      const offer = await createOffer(t);
      const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
      await chooseCard(t, buyer, order.id, 'pm_card_visa').expect(200);
      const results = await Promise.all([1, 2].map(() => orderCall(t, 'pay', [order.id], buyer.token)));
      expect(results.map((response) => response.status).sort()).toEqual([200, 409]);
      expect((await orderOf(order.id)).orderTimeLines.filter((entry) => entry.status === 'PAID')).toHaveLength(1);
    });
  });

  describe('/api/v1/delivery', () => {
    const deliverySecret = () => t.config.webhookSecrets.delivery;
    const pickupPoints = (query: object) => t.http.get('/api/v1/delivery/pickup-points').query(query);
    const bookParcel = (token: string, body: object) =>
      t.http.post('/api/v1/delivery/parcels').set('Authorization', `Bearer ${token}`).send(body);

    it('should list pickup points and quote rates', async () => {
      const points = (await pickupPoints({ country: 'nl', postalCode: '1011' }).expect(200)).body;
      expect(points).toHaveLength(3);
      expect(points[0]).toMatchObject({ country: 'NL', postalCode: '1011' });
      const { body: rates } = await t.http
        .post('/api/v1/delivery/rates')
        .send({ fromCountry: 'NL', toCountry: 'DE', weightGrams: 1500 })
        .expect(200);
      expect(rates).toEqual([
        { service: 'STANDARD', amount: 1495, currency: 'EUR', estimatedDays: 5 },
        { service: 'EXPRESS', amount: 2990, currency: 'EUR', estimatedDays: 3 },
      ]);
      await pickupPoints({ country: 'Netherlands' }).expect(400);
    });

    it("should ship and deliver a paid order from the carrier's signed tracking webhooks", async () => {
      const { order } = await paidWith('pm_card_visa');
      const address = { street: 'Main Street', city: 'Utrecht', postalCode: '3511AA', country: 'NL' };
      await bookParcel(buyer.token, { reference: order.id, address }).expect(403);
      const { body: parcel } = await bookParcel(admin, { reference: order.id, address }).expect(201);
      expect(parcel).toMatchObject({ reference: order.id, status: 'BOOKED' });
      expect(parcel.trackingNumber).toMatch(/^SBX/);

      const scan = (status: string) =>
        t.http
          .post(`/api/v1/delivery/sandbox/parcels/${parcel.id}/scan`)
          .set('Authorization', `Bearer ${admin}`)
          .send({ status });
      await scan('PICKED_UP').expect(200);
      expect(await orderOf(order.id)).toMatchObject({ status: 'SHIPPED', parcelId: parcel.id });
      await scan('PICKED_UP').expect(409);
      await scan('DELIVERED').expect(200);
      const delivered = await orderOf(order.id);
      expect(delivered.status).toBe('DELIVERED');
      expect(delivered.orderTimeLines.slice(-2)).toEqual([
        expect.objectContaining({ status: 'SHIPPED', by: 'system:logistics-sandbox' }),
        expect.objectContaining({ status: 'DELIVERED', by: 'system:logistics-sandbox' }),
      ]);
    });

    it('should acknowledge an authentic event for an unknown or malformed order', async () => {
      for (const reference of ['0123456789abcdef01234567', 'not-an-order']) {
        const body = JSON.stringify({
          id: `evt_${reference.replace(/-/g, '')}`,
          type: 'parcel.delivered',
          created: now(),
          data: { parcelId: 'par_x', reference, status: 'DELIVERED', trackingNumber: 'SBX2' },
        });
        await t.http
          .post('/api/v1/delivery/webhook')
          .set('content-type', 'application/json')
          .set(SIGNATURE, signWebhook(body, deliverySecret()))
          .send(body)
          .expect(200, { received: true, duplicate: false });
      }
    });

    it('should refuse forged tracking webhooks, ignore replays and events the carrier does not confirm', async () => {
      const { order } = await paidWith('pm_card_visa');
      const address = { street: 'Main Street', city: 'Utrecht', postalCode: '3511AA', country: 'NL' };
      const { body: parcel } = await bookParcel(admin, { reference: order.id, address }).expect(201);
      const event = (type: string, data: object = {}) =>
        JSON.stringify({
          id: `evt_${Math.random().toString(16).slice(2)}`,
          type,
          created: now(),
          data: { parcelId: parcel.id, reference: order.id, trackingNumber: parcel.trackingNumber, ...data },
        });
      const post = (body: string, signature: string) =>
        t.http
          .post('/api/v1/delivery/webhook')
          .set('content-type', 'application/json')
          .set(SIGNATURE, signature)
          .send(body);
      const pickedUp = event('parcel.picked_up', { status: 'PICKED_UP' });
      await post(pickedUp, signWebhook(pickedUp, secret)).expect(400);
      await post(pickedUp, signWebhook(pickedUp, deliverySecret(), now() - 600)).expect(400);

      // Correctly signed, but the carrier has the parcel BOOKED: not confirmed, nothing changes.
      const fresh = { received: true, duplicate: false };
      const delivered = event('parcel.delivered', { status: 'DELIVERED' });
      await post(delivered, signWebhook(delivered, deliverySecret())).expect(200, fresh);
      await post(pickedUp, signWebhook(pickedUp, deliverySecret())).expect(200, fresh);
      const forgedParcel = event('parcel.delivered', { parcelId: 'par_forged', status: 'DELIVERED' });
      await post(forgedParcel, signWebhook(forgedParcel, deliverySecret())).expect(200);
      expect((await orderOf(order.id)).status).toBe('PAID');

      await t.http
        .post(`/api/v1/delivery/sandbox/parcels/${parcel.id}/scan`)
        .set('Authorization', `Bearer ${admin}`)
        .send({ status: 'PICKED_UP' })
        .expect(200);
      expect((await orderOf(order.id)).status).toBe('SHIPPED');
      await post(delivered, signWebhook(delivered, deliverySecret())).expect(200, { received: true, duplicate: true });
      const stillInTransit = event('parcel.delivered', { status: 'DELIVERED' });
      await post(stillInTransit, signWebhook(stillInTransit, deliverySecret())).expect(200, fresh);
      const pickedUpAgain = event('parcel.picked_up', { status: 'PICKED_UP' });
      await post(pickedUpAgain, signWebhook(pickedUpAgain, deliverySecret())).expect(200, fresh);

      const shipped = await orderOf(order.id);
      expect(shipped).toMatchObject({ status: 'SHIPPED', parcelId: parcel.id });
      expect(shipped.orderTimeLines.filter((entry) => entry.status === 'SHIPPED')).toHaveLength(1);
    });
  });
});

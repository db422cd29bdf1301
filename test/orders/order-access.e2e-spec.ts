import { randomUUID } from 'node:crypto';
import { Role } from '../../src/common/principal';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';
import { Buyer, checkOut, chooseCard, createBuyer, OrderBody, orderCall } from './support/order-calls';
import { createOffer } from './support/order-fixtures';

const REPLIES = '/user/topic/default/json';
const MISSING = '0123456789abcdef01234567';

describe('orderServiceImpl access', () => {
  let t: TestApp;
  let ann: Buyer;
  let bob: Buyer;
  let annOrder: OrderBody;
  const clients: TestStompClient[] = [];

  beforeAll(async () => {
    // Paying before an admin's approval is refused only with ORDER_APPROVAL=manual, which this file checks.
    t = await startTestApp({ env: { ORDER_APPROVAL: 'manual' } });
    [ann, bob] = [await createBuyer(t), await createBuyer(t)];
    const offer = await createOffer(t);
    [annOrder] = await checkOut(t, ann, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.disconnect()));
    await t.stop();
  });

  describe('as a GUEST', () => {
    it.each([
      ['getOrdersFromLoggedUser', []],
      ['getOrdersFromLoggedUserByIds', [['0123456789abcdef01234567']]],
      ['getOrder', ['0123456789abcdef01234567']],
      ['orderCheckout', []],
      ['digitalOrderCheckout', [{}]],
      ['pay', ['0123456789abcdef01234567']],
      ['obtain3DSecureLink', ['0123456789abcdef01234567']],
      ['activePaymentProvider', []],
      ['activeLogisticsProvider', []],
    ])('should get null from %s', async (fn, args) => {
      expect((await orderCall(t, fn, args).expect(200)).body).toBeNull();
    });

    it.each([['approve'], ['ship'], ['deliver'], ['removeOrder']])('should need a token for %s', async (fn) => {
      await orderCall(t, fn, [annOrder.id]).expect(401);
    });
  });

  describe('as a USER', () => {
    it('should see only their own orders', async () => {
      const all = await orderCall(t, 'getOrdersFromLoggedUser', [], ann.token).expect(200);
      expect(all.body.map((order: OrderBody) => order.id)).toEqual([annOrder.id]);
      expect((await orderCall(t, 'getOrdersFromLoggedUser', [], bob.token).expect(200)).body).toEqual([]);
      const byIds = await orderCall(t, 'getOrdersFromLoggedUserByIds', [[annOrder.id, 'junk']], bob.token).expect(200);
      expect(byIds.body).toEqual([]);
      const own = await orderCall(t, 'getOrdersFromLoggedUserByIds', [[annOrder.id]], ann.token).expect(200);
      expect(own.body).toHaveLength(1);
      const admin = t.tokenFor(Role.ADMIN);
      const { body: asAdmin } = await orderCall(t, 'getOrdersFromLoggedUserByIds', [[annOrder.id]], admin);
      expect(asAdmin.map((order: OrderBody) => order.id)).toEqual([annOrder.id]);
    });

    it("should neither see nor change another buyer's order", async () => {
      const refused = await orderCall(t, 'getOrder', [annOrder.id], bob.token).expect(403);
      expect(refused.body.error).toBe('Access denied');
      await orderCall(t, 'pay', [annOrder.id], bob.token).expect(403);
      await orderCall(t, 'obtain3DSecureLink', [annOrder.id], bob.token).expect(403);
      await chooseCard(t, bob, annOrder.id, 'pm_card_visa').expect(403);
      const unchanged = await orderCall(t, 'getOrder', [annOrder.id], ann.token).expect(200);
      expect(unchanged.body).toMatchObject({ status: 'NEW', paymentMethodId: null });
    });

    it.each([
      ['approve', ['0123456789abcdef01234567']],
      ['deliver', ['0123456789abcdef01234567']],
      ['removeOrder', ['0123456789abcdef01234567']],
      ['getOrders', ['{}']],
      ['saveOrder', [{}]],
      ['createInvoiceBuyerToVendor', ['0123456789abcdef01234567']],
    ])('should be refused ADMIN method %s with 403', async (fn, args) => {
      await orderCall(t, fn, args, ann.token).expect(403);
    });

    it('should be refused shipping her own order (only its seller ships) with 403', async () => {
      await orderCall(t, 'ship', [annOrder.id], ann.token).expect(403);
    });

    it('should not pay an order that is not approved or has no card', async () => {
      await orderCall(t, 'pay', [annOrder.id], ann.token).expect(409);
      await orderCall(t, 'obtain3DSecureLink', [annOrder.id], ann.token).expect(409);
    });

    it("should refuse another buyer's saved card like an unknown one and leave the order unpaid", async () => {
      const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' };
      const { body: annsCard } = await t.http
        .post('/api/v1/cardpayment/payment-methods')
        .set('Authorization', `Bearer ${ann.token}`)
        .send(card)
        .expect(201);
      const offer = await createOffer(t);
      const admin = t.tokenFor(Role.ADMIN);
      const [bobsOrder] = await checkOut(t, bob, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
      await orderCall(t, 'approve', [bobsOrder.id], admin).expect(200);
      await chooseCard(t, bob, bobsOrder.id, annsCard.id).expect(200);
      const refused = await orderCall(t, 'pay', [bobsOrder.id], bob.token).expect(400);
      expect(refused.body).toMatchObject({
        status: 400,
        error: 'Bad Request',
        message: `No such payment method: ${annsCard.id}`,
        requestId: expect.any(String),
      });
      const { body: unpaid } = await orderCall(t, 'getOrder', [bobsOrder.id], bob.token).expect(200);
      expect(unpaid.status).toBe('PAYMENT_FAILED');

      const items = [{ sellerSkuId: offer.sellerSkuId }];
      const direct = { commerceItems: items, paymentMethodId: annsCard.id, confirm: true };
      const { body: refusedDirect } = await orderCall(t, 'digitalOrderCheckout', [direct], bob.token).expect(400);
      expect(refusedDirect.message).toBe(`No such payment method: ${annsCard.id}`);
      const bobsOrders = (await orderCall(t, 'getOrdersFromLoggedUser', [], bob.token).expect(200)).body;
      expect(bobsOrders.map((order: OrderBody) => order.status)).not.toContain('PAID');

      const [annsOrder] = await checkOut(t, ann, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
      await orderCall(t, 'approve', [annsOrder.id], admin).expect(200);
      await chooseCard(t, ann, annsOrder.id, annsCard.id).expect(200);
      const { body: paid } = await orderCall(t, 'pay', [annsOrder.id], ann.token).expect(200);
      expect(paid).toMatchObject({ status: 'SUCCEEDED', orderStatus: 'PAID' });
    });

    it('should not tokenize cards as a guest, nor numbers that are not test cards', async () => {
      const card = { number: '4242424242424242', expMonth: 1, expYear: 2099, cvc: '123' };
      await t.http.post('/api/v1/cardpayment/payment-methods').send(card).expect(401);
      const post = (body: object) =>
        t.http.post('/api/v1/cardpayment/payment-methods').set('Authorization', `Bearer ${ann.token}`).send(body);
      await post({ ...card, number: '4111111111111111' }).expect(400);
      await post({ ...card, expYear: 2001 }).expect(400);
      await post({ ...card, number: 4242424242424242 }).expect(400);
    });
  });

  describe('the order topic', () => {
    const connect = async (token: string) => {
      const client = await TestStompClient.connect(t.url, { token });
      clients.push(client);
      await client.subscribe(REPLIES);
      return client;
    };
    const trySubscribe = async (client: TestStompClient, destination: string) => {
      const receipt = `r-${randomUUID()}`;
      const confirmed = client.receipt(receipt).then(() => 'subscribed' as const);
      client.client.subscribe(destination, () => undefined, { receipt });
      const refused = client.next(REPLIES, (reply) => reply.actionId === receipt);
      return Promise.race([confirmed, refused]);
    };

    it("should let the buyer, the seller's user and an ADMIN follow it, and refuse anybody else", async () => {
      const sellerAccount = await createBuyer(t);
      const offer = await createOffer(t, { sellerUser: sellerAccount });
      const [order] = await checkOut(t, ann, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
      const topic = `/topic/order/${order.id}`;

      expect(await trySubscribe(await connect(ann.token), topic)).toBe('subscribed');
      expect(await trySubscribe(await connect(sellerAccount.token), topic)).toBe('subscribed');
      expect(await trySubscribe(await connect(t.tokenFor(Role.ADMIN)), topic)).toBe('subscribed');
      const refused = await trySubscribe(await connect(bob.token), topic);
      expect(refused).toMatchObject({ status: 403, error: 'Access denied' });
    });
  });

  describe('bad input', () => {
    it.each([
      ['an int for a String', 'getOrder', [42]],
      ['a Map for an IdList', 'getOrdersFromLoggedUserByIds', [{ ids: [] }]],
      ['a malformed order id', 'getOrder', ['../../etc']],
      ['a wrong item id', 'digitalOrderCheckout', [{ commerceItems: [{ sellerSkuId: 'x' }] }]],
      ['neither an order nor items', 'digitalOrderCheckout', [{ paymentMethodId: 'pm_card_visa' }]],
      ['a negative quantity', 'digitalOrderCheckout', [{ quantity: -1 }]],
      ['a text for confirm', 'digitalOrderCheckout', [{ confirm: 'yes' }]],
      ['a $ key in metadata', 'digitalOrderCheckout', [{ orderId: MISSING, metadata: { $where: 'x' } }]],
      ['a nested metadata value', 'digitalOrderCheckout', [{ orderId: MISSING, metadata: { a: { b: 1 } } }]],
      ['a __proto__ key', 'digitalOrderCheckout', [JSON.parse('{"__proto__": {"admin": true}}')]],
      ['a constructor key', 'digitalOrderCheckout', [{ constructor: { prototype: {} } }]],
    ])('should refuse %s with 400', async (_, fn, args) => {
      const response = await orderCall(t, fn, args, ann.token);
      expect(response.status).toBe(400);
    });

    it('should refuse operators in search queries', async () => {
      const admin = t.tokenFor(Role.ADMIN);
      await orderCall(t, 'getOrders', [JSON.stringify({ query: { $where: 'sleep(1000)' } })], admin).expect(400);
      await orderCall(t, 'getOrders', [JSON.stringify({ query: { status: { $ne: 'NEW' } } })], admin).expect(400);
      await orderCall(t, 'getOrders', [JSON.stringify({ query: { passwordHash: 'x' } })], admin).expect(400);
      await orderCall(t, 'getOrders', ['not json'], admin).expect(400);
    });

    it("should refuse an order id that is not the buyer's own nor existing with 404", async () => {
      await orderCall(t, 'getOrder', ['0123456789abcdef01234567'], ann.token).expect(404);
    });
  });
});

import { Client, IFrame } from '@stomp/stompjs';
import WebSocket from 'ws';
import { Role } from '../src/common/principal';
import { Buyer, CART, createBuyer, orderCall } from './orders/support/order-calls';
import { createOffer } from './orders/support/order-fixtures';
import { TestStompClient } from './realtime/stomp-client';
import { startTestApp, TestApp } from './support/test-app';

const USER_REPLIES = '/user/topic/default/json';

/**
 * The stable error codes clients branch on (root README, "Error codes"), each provoked through the product as a
 * client would. That every other error answer carries a code listed for its status is checked by the test app's
 * request helpers for every e2e test.
 */
describe('error codes', () => {
  let t: TestApp;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await startTestApp({ env: { BEAN_RATE_LIMIT: '100000' } });
    buyer = await createBuyer(t);
  });

  afterAll(async () => {
    await t.stop();
  });

  describe('the call', () => {
    it('should answer an unknown bean with UNKNOWN_BEAN', async () => {
      const { body } = await t.callBean('nope', 'x', []).expect(404);
      expect(body.code).toBe('UNKNOWN_BEAN');
    });

    it('should answer an unknown function with UNKNOWN_FUNCTION', async () => {
      const { body } = await t.callBean(CART, 'nope', [], { token: buyer.token }).expect(400);
      expect(body.code).toBe('UNKNOWN_FUNCTION');
    });

    it('should answer an argument of the wrong type with ARGUMENT_MISMATCH and its field', async () => {
      const { body } = await t.callBean('jobsManagementServiceImpl', 'startJob', ['import', 'many'], {
        token: t.tokenFor(Role.ADMIN),
      });
      expect(body).toMatchObject({ status: 400, code: 'ARGUMENT_MISMATCH', details: [{ field: 'args[1]' }] });
    });

    it('should answer a missing context header with CONTEXT_HEADER_INVALID and an unknown site with UNKNOWN_SITE', async () => {
      const missing = await t.http
        .post('/api/v1/bean/request')
        .set('Site-Context', 'default')
        .send({ beanId: CART, functionName: 'getCartDTO', args: [] })
        .expect(400);
      expect(missing.body.code).toBe('CONTEXT_HEADER_INVALID');
      const unknown = await t.callBean(CART, 'getCartDTO', [], { site: 'nowhere' }).expect(400);
      expect(unknown.body.code).toBe('UNKNOWN_SITE');
    });

    it('should answer a bad envelope with VALIDATION_FAILED and its details', async () => {
      const { body } = await t.http
        .post('/api/v1/bean/request')
        .set('Lang-Context', 'en')
        .set('Site-Context', 'default')
        .send({ beanId: 7, functionName: 'x', args: [] })
        .expect(400);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details.length).toBeGreaterThan(0);
    });

    it('should answer a USER calling an ADMIN method with ACCESS_DENIED', async () => {
      const { body } = await t
        .callBean('jobsManagementServiceImpl', 'startJob', ['import', 1], { token: buyer.token })
        .expect(403);
      expect(body.code).toBe('ACCESS_DENIED');
    });

    it('should answer a guest calling a protected method with UNAUTHORIZED', async () => {
      const { body } = await t.callBean('jobsManagementServiceImpl', 'startJob', ['import', 1]).expect(401);
      expect(body.code).toBe('UNAUTHORIZED');
    });

    it('should answer an unknown route with NOT_FOUND', async () => {
      const { body } = await t.http.get('/api/v1/nowhere').expect(404);
      expect(body.code).toBe('NOT_FOUND');
    });
  });

  describe('authentication', () => {
    it('should answer a wrong password with INVALID_CREDENTIALS', async () => {
      const { body } = await t.http
        .post('/api/v1/auth/token')
        .send({ username: buyer.username, password: 'not-the-password' })
        .expect(401);
      expect(body.code).toBe('INVALID_CREDENTIALS');
    });

    it('should answer a forged token with TOKEN_INVALID', async () => {
      const { body } = await t.callBean(CART, 'getCartDTO', [], { token: `${buyer.token}x` }).expect(401);
      expect(body.code).toBe('TOKEN_INVALID');
    });
  });

  describe('cart and orders', () => {
    it('should answer the checkout of an empty cart with CART_EMPTY', async () => {
      const { body } = await orderCall(t, 'orderCheckout', [], buyer.token).expect(409);
      expect(body).toMatchObject({ code: 'CART_EMPTY', message: 'The cart is empty' });
    });

    it('should answer more than the stock with OUT_OF_STOCK', async () => {
      const offer = await createOffer(t, { quantity: 2 });
      const items = [{ sellerSkuId: offer.sellerSkuId, quantity: 3 }];
      const { body } = await t.callBean(CART, 'addCommerceItems', [{ items }], { token: buyer.token }).expect(409);
      expect(body.code).toBe('OUT_OF_STOCK');
    });

    it('should answer an unknown seller SKU with SKU_NOT_FOUND', async () => {
      const items = [{ sellerSkuId: '0123456789abcdef01234567', quantity: 1 }];
      const { body } = await t.callBean(CART, 'addCommerceItems', [{ items }], { token: buyer.token }).expect(404);
      expect(body.code).toBe('SKU_NOT_FOUND');
    });

    it('should answer the cancellation of a delivered order with ORDER_NOT_CANCELABLE', async () => {
      const admin = t.tokenFor(Role.ADMIN);
      const offer = await createOffer(t);
      const items = [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }];
      await t.callBean(CART, 'addCommerceItems', [{ items }], { token: buyer.token }).expect(200);
      const [order] = (await orderCall(t, 'orderCheckout', [], buyer.token).expect(200)).body as { id: string }[];
      const address = { name: 'Ann', street: 'Canal Street', city: 'Amsterdam', postalCode: '1011AA', country: 'NL' };
      await orderCall(
        t,
        'digitalOrderCheckout',
        [{ orderId: order.id, paymentMethodId: 'pm_card_visa', shippingAddress: address }],
        buyer.token,
      ).expect(200);
      await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
      await orderCall(t, 'ship', [order.id], admin).expect(200);
      const { body } = await orderCall(t, 'cancelOrder', [order.id], buyer.token).expect(409);
      expect(body.code).toBe('ORDER_NOT_CANCELABLE');
    });

    it('should answer an unknown order with ORDER_NOT_FOUND', async () => {
      const { body } = await orderCall(t, 'ship', ['0123456789abcdef01234567'], t.tokenFor(Role.ADMIN)).expect(404);
      expect(body.code).toBe('ORDER_NOT_FOUND');
    });
  });

  describe('rate limits', () => {
    it('should answer calls over the budget with RATE_LIMITED', async () => {
      const limited = await startTestApp({ env: { BEAN_RATE_LIMIT: '1' } });
      try {
        await limited.callBean(CART, 'getCartDTO', []).expect(200);
        const { body } = await limited.callBean(CART, 'getCartDTO', []).expect(429);
        expect(body.code).toBe('RATE_LIMITED');
      } finally {
        await limited.stop();
      }
    });
  });

  describe('STOMP', () => {
    it('should put the code in error replies', async () => {
      const user = await TestStompClient.connect(t.url, { token: buyer.token });
      try {
        await user.subscribe(USER_REPLIES);
        user.send('/request/bean', {
          beanId: 'jobsManagementServiceImpl',
          functionName: 'startJob',
          args: ['import', 1],
          actionId: 'denied',
        });
        user.send('/request/bean', { beanId: 'nope', functionName: 'x', args: [], actionId: 'unknown' });
        expect(await user.next(USER_REPLIES, (reply) => reply.actionId === 'denied')).toMatchObject({
          status: 403,
          code: 'ACCESS_DENIED',
        });
        expect(await user.next(USER_REPLIES, (reply) => reply.actionId === 'unknown')).toMatchObject({
          status: 404,
          code: 'UNKNOWN_BEAN',
        });
      } finally {
        await user.disconnect();
      }
    });

    it('should name the code of an ERROR frame in its code header', async () => {
      const frame = await refusedConnect(t.url, { Authorization: 'Basic abc' });
      expect(frame.headers).toMatchObject({ message: 'Unauthorized', code: 'TOKEN_INVALID' });
    });

    it('should put the code in the JSON body of an ERROR frame', async () => {
      const frame = await refusedConnect(t.url, { 'Lang-Context': 'en', 'Site-Context': 'nowhere' });
      expect(frame.headers.code).toBe('UNKNOWN_SITE');
      expect(JSON.parse(frame.body)).toMatchObject({ status: 400, code: 'UNKNOWN_SITE' });
    });
  });
});

/** The ERROR frame a CONNECT with these headers is refused with. */
async function refusedConnect(baseUrl: string, connectHeaders: Record<string, string>): Promise<IFrame> {
  const client = new Client({
    webSocketFactory: () => new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, ['v12.stomp']),
    connectHeaders,
    reconnectDelay: 0,
    debug: () => undefined,
  });
  try {
    return await new Promise<IFrame>((resolve, reject) => {
      client.onConnect = () => reject(new Error('CONNECT was accepted'));
      client.onStompError = resolve;
      client.activate();
    });
  } finally {
    await client.deactivate();
  }
}

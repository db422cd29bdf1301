import { Role } from '../../src/common/principal';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';
import { createAccount, loginToken } from '../auth/support/accounts';
import {
  Buyer,
  checkOut,
  cheapestRate,
  chooseCard as chooseCardOf,
  DEFAULT_ITEM_WEIGHT,
  giveAddress,
  OrderBody,
  orderCall,
  withTax,
} from './support/order-calls';
import { createOffer, stockOf } from './support/order-fixtures';

type LiveEvent = { event: string; id: string; data: OrderBody };

/** The buyer logs in with a password, then uses public interfaces only: bean calls, REST, STOMP, 3-D Secure page. */
describe('orderServiceImpl buyer journey', () => {
  let t: TestApp;
  let admin: string;
  let buyer: Buyer;
  let stomp: TestStompClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { ORDER_TAX_RATE: '21' } });
    admin = t.tokenFor(Role.ADMIN);
    const account = await createAccount(t);
    buyer = { id: String(account.user._id), username: account.username, token: await loginToken(t, account) };
    await giveAddress(t, buyer.token, 'NL');
    stomp = await TestStompClient.connect(t.url, { token: buyer.token });
  });

  afterAll(async () => {
    await stomp.disconnect();
    await t.stop();
  });

  const statusesSeen = async (orderId: string, count: number): Promise<string[]> => {
    const topic = `/topic/order/${orderId}`;
    const seen: string[] = [];
    for (let i = 0; i < count; i++) {
      const message = await stomp.next<LiveEvent>(topic);
      expect(message).toMatchObject({ event: 'order.status', id: orderId });
      seen.push(message.data.status);
    }
    return seen;
  };

  const address = { name: 'Ann', street: 'Canal Street', city: 'Amsterdam', postalCode: '1011AA', country: 'NL' };
  const chooseCard = (orderId: string, paymentMethodId: string) =>
    chooseCardOf(t, buyer, orderId, paymentMethodId, { shippingAddress: address }).expect(200);

  it('should check out, pay by card, ship and deliver, publishing every status', async () => {
    const [fern, moss] = [await createOffer(t, { price: 1299 }), await createOffer(t, { price: 450 })];
    const orders = await checkOut(t, buyer, [
      { sellerSkuId: fern.sellerSkuId, quantity: 2 },
      { sellerSkuId: moss.sellerSkuId, quantity: 1 },
    ]);
    expect(orders).toHaveLength(2);
    const order = orders.find((o) => o.embeddedVendor.sellerId === fern.sellerId)!;
    const shipping = await cheapestRate(t, {
      fromCountry: 'NL',
      toCountry: 'NL',
      weightGrams: 2 * DEFAULT_ITEM_WEIGHT,
    });
    const amounts = withTax(2598, shipping!, 21);
    expect(order).toMatchObject({ status: 'APPROVED', ...amounts, currencyCode: 'EUR' });
    expect(order.orderTimeLines.map(({ status, by }) => [status, by])).toEqual([
      ['NEW', buyer.id],
      ['APPROVED', 'system:auto-approval'],
    ]);
    expect(await stockOf(t, fern.sellerSkuId)).toBe(8);
    const { body: cart } = await t.callBean('shoppingCartServiceImpl', 'getCartDTO', [], { token: buyer.token });
    expect(cart.itemCount).toBe(0);

    await stomp.subscribe(`/topic/order/${order.id}`);
    await chooseCard(order.id, 'pm_card_visa');
    const { body: payment } = await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    expect(payment).toMatchObject({
      orderId: order.id,
      status: 'SUCCEEDED',
      orderStatus: 'PAID',
      amount: amounts.total,
    });
    await orderCall(t, 'pay', [order.id], buyer.token).expect(409);

    await orderCall(t, 'ship', [order.id], admin).expect(200);
    await orderCall(t, 'deliver', [order.id], admin).expect(200);

    expect(await statusesSeen(order.id, 4)).toEqual(['PAYMENT_PENDING', 'PAID', 'SHIPPED', 'DELIVERED']);
    const { body: delivered } = await orderCall(t, 'getOrder', [order.id], buyer.token).expect(200);
    expect(delivered.parcelId).toMatch(/^par_/);
    expect(delivered.orderTimeLines.map((entry: { status: string }) => entry.status)).toEqual([
      'NEW',
      'APPROVED',
      'PAYMENT_PENDING',
      'PAID',
      'SHIPPED',
      'DELIVERED',
    ]);

    // Both orders' NEW and APPROVED, then four transitions of this one; the checkout once.
    const request = { query: { customerId: buyer.id }, ignoreRegexWrap: ['customerId'], limit: 200 };
    const analytics = 'customerAnalyticsServiceImpl';
    const { body } = await t.callBean(analytics, 'getCustomerActivity', [request], { token: admin }).expect(200);
    const types = body.content.map((activity: { type: string }) => activity.type);
    expect(types.filter((type: string) => type === 'CHECKOUT')).toHaveLength(1);
    expect(types.filter((type: string) => type === 'ORDER_STATUS')).toHaveLength(2 + 2 + 4);
  });

  it('should pay with a 3-D Secure card through the challenge page and the signed webhook', async () => {
    const offer = await createOffer(t, { price: 2000 });
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    await stomp.subscribe(`/topic/order/${order.id}`);

    const card = await t.http
      .post('/api/v1/cardpayment/payment-methods')
      .set('Authorization', `Bearer ${buyer.token}`)
      .send({ number: '4000000000003220', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' })
      .expect(201);
    expect(card.body).toMatchObject({ id: expect.stringMatching(/^pm_/), brand: 'visa', last4: '3220' });
    await chooseCard(order.id, card.body.id);

    const { body: payment } = await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    expect(payment).toMatchObject({ status: 'REQUIRES_ACTION', orderStatus: 'PAYMENT_PENDING' });
    const { body: link } = await orderCall(t, 'obtain3DSecureLink', [order.id], buyer.token).expect(200);
    expect(link).toBe(payment.nextActionUrl);
    const path = new URL(link).pathname;

    const page = await t.http.get(path).expect(200);
    expect(page.text).toContain(`€${(order.total / 100).toFixed(2)}`);
    const challenge = await t.http.post(path).send({ outcome: 'complete' }).expect(200);
    expect(challenge.body).toEqual({
      paymentIntentId: payment.paymentIntentId,
      status: 'SUCCEEDED',
      returnUrl: `${t.url}/?payment_intent=${payment.paymentIntentId}&redirect_status=succeeded`,
    });

    const { body: paid } = await orderCall(t, 'getOrder', [order.id], buyer.token).expect(200);
    expect(paid).toMatchObject({ status: 'PAID', paymentIntentId: payment.paymentIntentId });
    expect(paid.orderTimeLines.at(-1).by).toBe('system:card-sandbox');
    await t.http.post(path).send({ outcome: 'complete' }).expect(409);

    await orderCall(t, 'ship', [order.id], admin).expect(200);
    await orderCall(t, 'deliver', [order.id], admin).expect(200);
    expect(await statusesSeen(order.id, 4)).toEqual(['PAYMENT_PENDING', 'PAID', 'SHIPPED', 'DELIVERED']);
  });

  it('should let a declined card fail and a retry with a good card pay', async () => {
    const offer = await createOffer(t);
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    await chooseCard(order.id, 'pm_card_chargeDeclined');
    const { body: declined } = await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    expect(declined).toMatchObject({ status: 'FAILED', orderStatus: 'PAYMENT_FAILED', failureCode: 'card_declined' });

    await chooseCard(order.id, 'pm_card_mastercard');
    const { body: paid } = await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    expect(paid).toMatchObject({ status: 'SUCCEEDED', orderStatus: 'PAID' });
    expect(paid.paymentIntentId).not.toBe(declined.paymentIntentId);
    const { body } = await orderCall(t, 'getOrder', [order.id], buyer.token).expect(200);
    expect(body.orderTimeLines.map((entry: { status: string }) => entry.status)).toEqual([
      'NEW',
      'APPROVED',
      'PAYMENT_PENDING',
      'PAYMENT_FAILED',
      'APPROVED',
      'PAYMENT_PENDING',
      'PAID',
    ]);
  });

  it('should fail the payment of a card the provider does not know with 400', async () => {
    const offer = await createOffer(t);
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    await chooseCard(order.id, 'pm_unknown');
    await orderCall(t, 'pay', [order.id], buyer.token).expect(400);
    const { body } = await orderCall(t, 'getOrder', [order.id], buyer.token).expect(200);
    expect(body.status).toBe('PAYMENT_FAILED');
  });

  it('should buy directly with digitalOrderCheckout and confirm', async () => {
    const offer = await createOffer(t, { price: 999 });
    const request = {
      commerceItems: [{ sellerSkuId: offer.sellerSkuId }],
      quantity: 3,
      amount: 3626,
      currencyCode: 'EUR',
      paymentMethodId: 'pm_card_visa',
      confirm: true,
    };
    const { body: order } = await orderCall(t, 'digitalOrderCheckout', [request], buyer.token).expect(200);
    expect(order).toMatchObject({ status: 'PAID', digital: true, total: 3626, commerceItems: [{ quantity: 3 }] });
    expect(order.shipping).toBeNull();
    expect(await stockOf(t, offer.sellerSkuId)).toBe(7);
  });
});

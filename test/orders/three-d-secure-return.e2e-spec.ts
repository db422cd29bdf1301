import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';
import { Buyer, checkOut, chooseCard, createBuyer, OrderBody, orderCall } from './support/order-calls';
import { createOffer, Offer } from './support/order-fixtures';

type Payment = { orderStatus: string; paymentIntentId: string; nextActionUrl: string };
type LiveOrder = { data: OrderBody };

const SHOP = 'https://shop.example.com';
const THREE_DS_CARD = 'pm_card_threeDSecureRequired';
const address = { name: 'Ann', street: 'Canal Street', city: 'Amsterdam', postalCode: '1011AA', country: 'NL' };

/**
 * Issue 24: the sandbox 3-D Secure page sends the buyer back to the payment's `returnUrl` (default: this server's
 * public origin) instead of ending on JSON; only `PUBLIC_URL`'s origin and `PAYMENT_RETURN_ORIGINS` are allowed.
 */
describe('3-D Secure return to the shop', () => {
  let t: TestApp;
  let buyer: Buyer;
  let offer: Offer;
  let stomp: TestStompClient;

  beforeAll(async () => {
    t = await startTestApp({
      env: { PAYMENT_RETURN_ORIGINS: `${SHOP},http://localhost:5173`, CARD_PAYMENT_WEBHOOK_SECRET: 'card-secret-1234' },
    });
    buyer = await createBuyer(t);
    offer = await createOffer(t, { sellerUser: await createBuyer(t), quantity: 100 });
    stomp = await TestStompClient.connect(t.url, { token: buyer.token });
  });

  afterAll(async () => {
    await stomp.disconnect();
    await t.stop();
  });

  const orderId = async () => {
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    await stomp.subscribe(`/topic/order/${order.id}`);
    return order.id;
  };
  /** Chooses the 3-D Secure card (with `more`) and pays: the order waits for the challenge. */
  const pending = async (id: string, more: object = {}): Promise<Payment> => {
    await chooseCard(t, buyer, id, THREE_DS_CARD, { shippingAddress: address, ...more }).expect(200);
    const { body } = await orderCall(t, 'pay', [id], buyer.token).expect(200);
    expect(body).toMatchObject({ orderStatus: 'PAYMENT_PENDING', nextActionUrl: expect.any(String) });
    return body as Payment;
  };
  /** The browser's answer to the challenge page: its form, url-encoded. */
  const answerForm = (payment: Payment, outcome: 'complete' | 'fail') =>
    t.http.post(new URL(payment.nextActionUrl).pathname).type('form').send({ outcome });
  const settled = (id: string, status: string) =>
    stomp.next<LiveOrder>(`/topic/order/${id}`, ({ data }) => data.status === status);

  it('should send the browser back to the returnUrl with the outcome, and the order becomes PAID', async () => {
    const id = await orderId();
    const payment = await pending(id, { returnUrl: `${SHOP}/checkout/done?cart=7` });
    const page = await t.http.get(new URL(payment.nextActionUrl).pathname).expect(200);
    expect(page.text).toContain('<form method="post">');

    const answered = await answerForm(payment, 'complete').expect(303);
    const back = new URL(answered.headers.location);
    expect(back.origin + back.pathname).toBe(`${SHOP}/checkout/done`);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      cart: '7',
      payment_intent: payment.paymentIntentId,
      redirect_status: 'succeeded',
    });
    await settled(id, 'PAID');
  });

  it('should return to this server’s public origin when no returnUrl was given, also after a failed challenge', async () => {
    const id = await orderId();
    const payment = await pending(id);
    const answered = await answerForm(payment, 'fail').expect(303);
    const back = new URL(answered.headers.location);
    expect(back.origin).toBe(t.url);
    expect(back.searchParams.get('redirect_status')).toBe('failed');
    await settled(id, 'PAYMENT_FAILED');
  });

  it('should keep answering a JSON client with JSON, naming the returnUrl', async () => {
    const id = await orderId();
    const payment = await pending(id, { returnUrl: 'http://localhost:5173/paid' });
    const { body } = await t.http
      .post(new URL(payment.nextActionUrl).pathname)
      .send({ outcome: 'complete' })
      .expect(200);
    expect(body).toMatchObject({ paymentIntentId: payment.paymentIntentId, status: 'SUCCEEDED' });
    expect((body as { returnUrl: string }).returnUrl).toMatch(/^http:\/\/localhost:5173\/paid\?payment_intent=pi_/);
    await answerForm(payment, 'complete').expect(409);
  });

  it('should take the returnUrl of a direct purchase paid at once', async () => {
    const request = {
      commerceItems: [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }],
      paymentMethodId: THREE_DS_CARD,
      shippingAddress: address,
      confirm: true,
      returnUrl: `${SHOP}/direct`,
    };
    const { body } = await orderCall(t, 'digitalOrderCheckout', [request], buyer.token).expect(200);
    const order = body as OrderBody;
    const { body: link } = await orderCall(t, 'obtain3DSecureLink', [order.id], buyer.token).expect(200);
    const answered = await t.http
      .post(new URL(link as string).pathname)
      .type('form')
      .send({ outcome: 'complete' })
      .expect(303);
    expect(answered.headers.location).toMatch(/^https:\/\/shop\.example\.com\/direct\?payment_intent=pi_/);
  });

  it.each([
    ['another site', 'https://evil.example.com/'],
    ['a look-alike host', 'https://shop.example.com.evil.example/'],
    ['another scheme of an allowed host', 'http://shop.example.com/'],
    ['another port of an allowed host', 'https://shop.example.com:8443/'],
    ['a protocol-relative URL', '//evil.example.com/'],
    ['a relative path', '/checkout/done'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['credentials in the URL', 'https://user:secret@shop.example.com/'],
    ['a URL that is too long', `${SHOP}/${'a'.repeat(2000)}`],
    ['a number', 5],
    ['an operator object', { $gt: '' }],
  ])('should refuse %s as returnUrl with 400 and leave the order as it was', async (_, returnUrl) => {
    const id = await orderId();
    const { body } = await chooseCard(t, buyer, id, THREE_DS_CARD, { returnUrl }).expect(400);
    expect(body).toMatchObject({ status: 400, error: 'Bad Request', requestId: expect.any(String) });
    const { body: order } = await orderCall(t, 'getOrder', [id], buyer.token).expect(200);
    expect(order).toMatchObject({ status: 'APPROVED', paymentMethodId: null });
  });

  it('should refuse a bad returnUrl of a direct purchase before ordering anything', async () => {
    const before = ((await orderCall(t, 'getOrdersFromLoggedUser', [], buyer.token).expect(200)).body as []).length;
    const request = {
      commerceItems: [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }],
      paymentMethodId: THREE_DS_CARD,
      confirm: true,
      returnUrl: 'https://evil.example.com/',
    };
    await orderCall(t, 'digitalOrderCheckout', [request], buyer.token).expect(400);
    const after = ((await orderCall(t, 'getOrdersFromLoggedUser', [], buyer.token).expect(200)).body as []).length;
    expect(after).toBe(before);
  });
});

import { Role } from '../../src/common/principal';
import { InvoiceIssuer } from '../../src/services/accounting/invoices';
import { CardPaymentEventType, CardRefundEventType, signWebhook } from '../../src/services/payments';
import { OrderExpiry } from '../../src/services/orders/order-expiry';
import { OrderPaidRetry } from '../../src/services/orders/order-paid-retry';
import { SignedWebhookSender } from '../../src/services/payments/signed-webhook-sender';
import { TestStompClient } from '../realtime/stomp-client';
import { Cluster, startCluster } from '../support/cluster';
import { TestApp } from '../support/test-app';
import { Buyer, checkOut, createBuyer, OrderBody, orderCall, payOrder } from './support/order-calls';
import { createOffer, stockOf } from './support/order-fixtures';

type RecoveredOrder = OrderBody & { refunds: { status: string; refundId: string | null }[] };
type LiveEvent = { event: string; id: string; data: RecoveredOrder };
type SentEvent = { id: string; type: string; data: { id: string } };

// Sweeps wait out real (short) periods: a generous bound for a loaded machine.
const WAIT_MS = 60_000;

/**
 * What is recovered when a step after a decision was lost, on two instances sharing one database and both sweeping:
 * the invoice of a paid order whose hook failed, a refund whose webhook never arrived, and a 3-D Secure payment its
 * buyer never completed. Waiting is on the order's STOMP topic or bounded polling; no step depends on timing. The
 * sweeps a test is not about are held ({@link holdSweeps}): with a 3 s TTL, a loaded machine could otherwise expire
 * an order between its checkout and its payment, or settle it before the test has looked at the state it waits in.
 */
describe('recovery of lost steps', () => {
  let cluster: Cluster;
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  let buyer: Buyer;
  let stomp: TestStompClient;

  beforeAll(async () => {
    cluster = await startCluster({ env: { ORDER_PAYMENT_TTL: '3s', INVOICE_RETRY_AFTER: '2s' } });
    [a, b] = cluster.instances;
    admin = a.tokenFor(Role.ADMIN);
    buyer = await createBuyer(a);
    stomp = await TestStompClient.connect(b.url, { token: buyer.token });
  });

  afterAll(async () => {
    await stomp?.disconnect();
    await cluster?.stop();
  });

  const orderOn = async (app: TestApp, id: string): Promise<RecoveredOrder> =>
    (await orderCall(app, 'getOrder', [id], buyer.token).expect(200)).body;
  const invoicesOf = async (app: TestApp): Promise<{ orderId: string; number: string; kind: string }[]> =>
    (await app.http.get('/api/v1/invoices/mine').set('Authorization', `Bearer ${buyer.token}`).expect(200)).body
      .content;
  /** Polls `read` until `done` holds (at most WAIT_MS); what it read last. */
  const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const published = async (orderId: string, done: (order: RecoveredOrder) => boolean): Promise<RecoveredOrder> =>
    (await stomp.next<LiveEvent>(`/topic/order/${orderId}`, (message) => done(message.data), WAIT_MS)).data;
  /**
   * The scheduled ticks of `task` on both instances do nothing until `resume()` (ticks look the method up each time);
   * a tick already under way started before the orders of the test were due.
   */
  const holdSweeps = (task: typeof OrderExpiry | typeof OrderPaidRetry) => {
    const held = [a, b].map((app) => {
      const sweeper: { sweep(now?: Date): Promise<number> } = app.app.get(task);
      return jest.spyOn(sweeper, 'sweep').mockResolvedValue(0);
    });
    return { resume: () => held.forEach((spy) => spy.mockRestore()) };
  };
  // Each test lets the expiry sweep run only where it waits for it.
  let expiry: { resume(): void };
  beforeEach(() => (expiry = holdSweeps(OrderExpiry)));
  afterEach(() => jest.restoreAllMocks());

  /** The sandbox's webhooks of `types` on `app` are lost on the way (answered as sent, never delivered). */
  const loseWebhooks = (app: TestApp, types: string[]) => {
    const sender = app.app.get(SignedWebhookSender);
    const send = sender.send.bind(sender);
    return jest
      .spyOn(sender, 'send')
      .mockImplementation((path: string, event: object, secret: string) =>
        types.includes((event as SentEvent).type) ? Promise.resolve() : send(path, event, secret),
      );
  };

  it('should issue the invoice of a paid order whose invoice hook failed, exactly once, by a later sweep', async () => {
    const offer = await createOffer(a);
    const [order] = await checkOut(a, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    const retry = holdSweeps(OrderPaidRetry);
    const issue = jest.spyOn(a.app.get(InvoiceIssuer), 'issue').mockRejectedValueOnce(new Error('register down'));
    try {
      expect((await payOrder(a, buyer, order.id, admin)).orderStatus).toBe('PAID');
      expect(issue).toHaveBeenCalledTimes(1);
    } finally {
      issue.mockRestore();
    }
    expect((await invoicesOf(b)).filter(({ orderId }) => orderId === order.id)).toEqual([]);

    retry.resume();
    const issued = await eventually(
      () => invoicesOf(b),
      (invoices) => invoices.some(({ orderId }) => orderId === order.id),
    );
    expect(issued.filter(({ orderId }) => orderId === order.id)).toHaveLength(1);
    // Both instances keep sweeping (here at once, as if everything were due): still one invoice, one number.
    const later = new Date(Date.now() + 3_600_000);
    await Promise.all([a, b, a, b].map((app) => app.app.get(OrderPaidRetry).sweep(later)));
    const invoices = (await invoicesOf(a)).filter(({ orderId }) => orderId === order.id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0].number).toMatch(/^INV-\d{4}-000001$/);
    expect((await orderOn(b, order.id)).status).toBe('PAID');
  });

  it('should still issue the invoice by the sweep when the buyer canceled the paid order before it came', async () => {
    const offer = await createOffer(a);
    const [order] = await checkOut(a, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    // Left in place until afterEach: a sweep that took the spy before a restore would get undefined from it.
    jest.spyOn(a.app.get(InvoiceIssuer), 'issue').mockRejectedValueOnce(new Error('register down'));
    expect((await payOrder(a, buyer, order.id, admin)).orderStatus).toBe('PAID');
    await orderCall(a, 'cancelOrder', [order.id], buyer.token).expect(200);
    await eventually(
      () => orderOn(b, order.id),
      (current) => current.status === 'CANCELED',
    );

    // The cancellation refunds the payment: its credit note corrects the invoice, issued first if still missing.
    const ofOrder = (invoices: { orderId: string; kind?: string }[]) =>
      invoices.filter(({ orderId }) => orderId === order.id).map(({ kind }) => kind);
    const issued = await eventually(
      () => invoicesOf(b),
      (invoices) => ofOrder(invoices).length >= 2,
    );
    expect(ofOrder(issued).sort()).toEqual(['buyer-to-vendor', 'credit-note']);
  });

  it('should settle a refund whose webhook was lost when handleNotify asks the provider, once', async () => {
    const offer = await createOffer(a);
    const [order] = await checkOut(a, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 2 }]);
    await payOrder(a, buyer, order.id, admin);
    await stomp.subscribe(`/topic/order/${order.id}`);
    expect(await stockOf(a, offer.sellerSkuId)).toBe(8);

    const lost = loseWebhooks(a, [CardRefundEventType.REFUNDED]);
    let dropped: SentEvent | undefined;
    try {
      const { body: asked } = await orderCall(a, 'refundOrder', [{ orderId: order.id }], admin).expect(200);
      expect(asked.refunds).toEqual([expect.objectContaining({ status: 'PENDING' })]);
      const calls = await eventually(
        async () => lost.mock.calls.map(([, event]) => event as SentEvent),
        (events) => events.some(({ type }) => type === CardRefundEventType.REFUNDED),
      );
      dropped = calls.find(({ type }) => type === CardRefundEventType.REFUNDED);
    } finally {
      lost.mockRestore();
    }
    const waiting = await orderOn(b, order.id);
    expect(waiting.status).toBe('PAID');
    expect(waiting.refunds.map(({ status }) => status)).toEqual(['PENDING']);
    expect(await stockOf(a, offer.sellerSkuId)).toBe(8);

    await orderCall(b, 'handleNotify', [], admin).expect(200);
    const refunded = await published(order.id, (one) => one.status === 'REFUNDED');
    expect(refunded.refunds.map(({ status }) => status)).toEqual(['SUCCEEDED']);
    expect(refunded.orderTimeLines.at(-1)).toMatchObject({ status: 'REFUNDED', by: 'system:card-sandbox' });
    expect(await stockOf(a, offer.sellerSkuId)).toBe(10);

    // Asking again, and the lost webhook arriving late after all, change nothing.
    await orderCall(a, 'handleNotify', [], admin).expect(200);
    expect(dropped).toBeDefined();
    const late = JSON.stringify(dropped);
    await a.http
      .post('/api/v1/cardpayment')
      .set('content-type', 'application/json')
      .set('webhook-signature', signWebhook(late, a.config.webhookSecrets.cardPayment))
      .send(late)
      .expect(200);
    const after = await orderOn(b, order.id);
    expect(after.orderTimeLines.filter(({ status }) => status === 'REFUNDED')).toHaveLength(1);
    expect(after.refunds.map(({ status }) => status)).toEqual(['SUCCEEDED']);
    expect(await stockOf(a, offer.sellerSkuId)).toBe(10);
  });

  it('should refuse handleNotify to a non-admin', async () => {
    const { body } = await orderCall(a, 'handleNotify', [], buyer.token).expect(403);
    expect(body).toMatchObject({
      status: 403,
      error: expect.any(String),
      message: expect.any(String),
      path: expect.any(String),
      timestamp: expect.any(String),
      requestId: expect.any(String),
    });
  });

  it('should cancel a 3-D Secure payment never completed after ORDER_PAYMENT_TTL, give the stock back once, and refuse a late challenge', async () => {
    const offer = await createOffer(a);
    const [order] = await checkOut(a, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 3 }]);
    await stomp.subscribe(`/topic/order/${order.id}`);
    const payment = await payOrder(a, buyer, order.id, admin, { paymentMethodId: 'pm_card_threeDSecureRequired' });
    expect(payment.orderStatus).toBe('PAYMENT_PENDING');
    expect(await stockOf(a, offer.sellerSkuId)).toBe(7);

    expiry.resume();
    const canceled = await published(order.id, (one) => one.status === 'CANCELED');
    expect(canceled.orderTimeLines.slice(-3).map(({ status, by }) => [status, by])).toEqual([
      ['PAYMENT_PENDING', buyer.id],
      ['PAYMENT_FAILED', 'system:card-sandbox'],
      ['CANCELED', 'system:payment-ttl'],
    ]);
    expect(await stockOf(a, offer.sellerSkuId)).toBe(10);

    // The intent was canceled at the provider: the buyer's late challenge can no longer charge them.
    const challenge = new URL(payment.nextActionUrl!).pathname;
    const { body: refused } = await b.http.post(challenge).send({ outcome: 'complete' }).expect(409);
    expect(refused).toMatchObject({ status: 409, message: expect.stringContaining('CANCELED') });
    await orderCall(a, 'handleNotify', [], admin).expect(200);
    const after = await orderOn(b, order.id);
    expect(after.status).toBe('CANCELED');
    expect(after.orderTimeLines.filter(({ status }) => status === 'CANCELED')).toHaveLength(1);
    expect(await stockOf(a, offer.sellerSkuId)).toBe(10);
  });

  it('should settle as PAID a 3-D Secure payment completed whose webhook was lost, when the TTL passes', async () => {
    const offer = await createOffer(a);
    const [order] = await checkOut(a, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    await stomp.subscribe(`/topic/order/${order.id}`);
    const payment = await payOrder(a, buyer, order.id, admin, { paymentMethodId: 'pm_card_threeDSecureRequired' });
    const lost = loseWebhooks(a, [CardPaymentEventType.SUCCEEDED]);
    try {
      const challenge = new URL(payment.nextActionUrl!).pathname;
      const { body: answered } = await a.http.post(challenge).send({ outcome: 'complete' }).expect(200);
      expect(answered).toMatchObject({ status: 'SUCCEEDED' });
    } finally {
      lost.mockRestore();
    }
    expect((await orderOn(b, order.id)).status).toBe('PAYMENT_PENDING');

    expiry.resume();
    const settled = await published(order.id, (one) => one.status === 'PAID');
    expect(settled.orderTimeLines.at(-1)).toMatchObject({ status: 'PAID', by: 'system:card-sandbox' });
    expect(await stockOf(a, offer.sellerSkuId)).toBe(9);
    const invoices = await eventually(
      () => invoicesOf(b),
      (all) => all.some(({ orderId }) => orderId === order.id),
    );
    expect(invoices.filter(({ orderId }) => orderId === order.id)).toHaveLength(1);
  });
});

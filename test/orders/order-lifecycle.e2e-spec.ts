import { Role } from '../../src/common/principal';
import { signWebhook } from '../../src/services/payments';
import { CardPaymentSandbox } from '../../src/services/payments/sandbox/card-payment-sandbox';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';
import { Buyer, checkOut, chooseCard, createBuyer, OrderBody, orderCall } from './support/order-calls';
import { createOffer, Offer, stockFiguresOf, stockOf } from './support/order-fixtures';

type Refund = {
  reference: string;
  refundId: string | null;
  amount: number;
  items: { sellerSkuId: string; quantity: number }[];
  restock: boolean;
  cancel: boolean;
  status: string;
};
type LifecycleOrder = Omit<OrderBody, 'orderTimeLines'> & {
  refunds: Refund[];
  orderTimeLines: { status: string; at: string; by: string; refundId?: string }[];
};
type LiveEvent = { event: string; id: string; data: LifecycleOrder };

const address = { name: 'Ann', street: 'Canal Street', city: 'Amsterdam', postalCode: '1011AA', country: 'NL' };
const SIGNATURE = 'webhook-signature';
const DESIGN_ERROR = {
  path: '/api/v1/bean/request',
  timestamp: expect.any(String),
  requestId: expect.any(String),
  message: expect.any(String),
};

/**
 * The order lifecycle with no admin in the loop (issue 18): approval at checkout, the buyer's cancellation, refunds
 * through the card sandbox settled by its signed webhook. Everything through the public interface; outcomes that
 * the webhook settles are awaited on the order's STOMP topic.
 */
describe('order lifecycle without an admin', () => {
  let t: TestApp;
  let admin: string;
  let buyer: Buyer;
  let other: Buyer;
  let seller: Buyer;
  let stomp: TestStompClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { ORDER_TAX_RATE: '21', CARD_PAYMENT_WEBHOOK_SECRET: 'card-secret-for-tests' } });
    admin = t.tokenFor(Role.ADMIN);
    [buyer, other, seller] = [await createBuyer(t), await createBuyer(t), await createBuyer(t)];
    stomp = await TestStompClient.connect(t.url, { token: buyer.token });
  });

  afterAll(async () => {
    await stomp.disconnect();
    await t.stop();
  });

  const orderOf = async (id: string): Promise<LifecycleOrder> =>
    (await orderCall(t, 'getOrder', [id], buyer.token).expect(200)).body;
  const offerOfSeller = (options: { price?: number; sellerId?: string } = {}) =>
    createOffer(t, { sellerUser: seller, ...options });

  /** A checked-out order whose topic the buyer follows. */
  const ordered = async (lines: [Offer, number][]): Promise<LifecycleOrder> => {
    const items = lines.map(([offer, quantity]) => ({ sellerSkuId: offer.sellerSkuId, quantity }));
    const [order] = (await checkOut(t, buyer, items)) as LifecycleOrder[];
    await stomp.subscribe(`/topic/order/${order.id}`);
    return order;
  };
  const paid = async (lines: [Offer, number][], paymentMethodId = 'pm_card_visa'): Promise<LifecycleOrder> => {
    const order = await ordered(lines);
    await chooseCard(t, buyer, order.id, paymentMethodId, { shippingAddress: address }).expect(200);
    const { body } = await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    expect(body.orderStatus).toBe('PAID');
    return orderOf(order.id);
  };
  /** The order as published once `done` holds (the signed webhook has settled it). */
  const published = async (orderId: string, done: (order: LifecycleOrder) => boolean): Promise<LifecycleOrder> => {
    const event = await stomp.next<LiveEvent>(`/topic/order/${orderId}`, (message) => done(message.data));
    expect(event).toMatchObject({ event: 'order.status', id: orderId });
    return event.data;
  };
  const refund = (request: object, token = admin) => orderCall(t, 'refundOrder', [request], token);
  const settledRefunds = (count: number) => (order: LifecycleOrder) =>
    order.refunds.filter((one) => one.status === 'SUCCEEDED').length === count;

  describe('approval at checkout', () => {
    it('should approve a cart order at once by system:auto-approval, publish it, and let the buyer pay', async () => {
      const offer = await offerOfSeller({ price: 1000 });
      const [order] = (await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }])) as LifecycleOrder[];
      expect(order.status).toBe('APPROVED');
      expect(order.orderTimeLines.map(({ status, by }) => [status, by])).toEqual([
        ['NEW', buyer.id],
        ['APPROVED', 'system:auto-approval'],
      ]);
      expect((await orderOf(order.id)).status).toBe('APPROVED');
      await chooseCard(t, buyer, order.id, 'pm_card_visa').expect(200);
      await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
      expect((await orderOf(order.id)).status).toBe('PAID');
    });

    it('should approve a direct (digital) order at once too', async () => {
      const offer = await offerOfSeller();
      const request = { commerceItems: [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }] };
      const { body } = await orderCall(t, 'digitalOrderCheckout', [request], buyer.token).expect(200);
      expect(body.status).toBe('APPROVED');
      expect(body.orderTimeLines.at(-1)).toMatchObject({ status: 'APPROVED', by: 'system:auto-approval' });
    });
  });

  describe('cancelOrder', () => {
    it('should cancel an unpaid order, give its stock back once and publish it', async () => {
      const offer = await offerOfSeller();
      const order = await ordered([[offer, 3]]);
      expect(await stockOf(t, offer.sellerSkuId)).toBe(7);
      const { body } = await orderCall(t, 'cancelOrder', [order.id], buyer.token).expect(200);
      expect(body).toMatchObject({ id: order.id, status: 'CANCELED' });
      expect(body.orderTimeLines.at(-1)).toMatchObject({ status: 'CANCELED', by: buyer.id });
      expect((await published(order.id, (o) => o.status === 'CANCELED')).status).toBe('CANCELED');
      expect(await stockOf(t, offer.sellerSkuId)).toBe(10);
      const again = await orderCall(t, 'cancelOrder', [order.id], buyer.token).expect(409);
      expect(again.body).toMatchObject({ status: 409, error: 'Conflict', ...DESIGN_ERROR });
      expect(await stockOf(t, offer.sellerSkuId)).toBe(10);
    });

    it('should cancel an order whose payment failed, giving its stock back', async () => {
      const offer = await offerOfSeller();
      const order = await ordered([[offer, 2]]);
      await chooseCard(t, buyer, order.id, 'pm_card_chargeDeclined').expect(200);
      expect((await orderCall(t, 'pay', [order.id], buyer.token).expect(200)).body.orderStatus).toBe('PAYMENT_FAILED');
      await orderCall(t, 'cancelOrder', [order.id], buyer.token).expect(200);
      expect(await stockOf(t, offer.sellerSkuId)).toBe(10);
    });

    it('should refund a paid order in full and cancel it once the signed refund webhook settles it', async () => {
      const offer = await offerOfSeller({ price: 1000 });
      const order = await paid([[offer, 2]]);
      expect(await stockOf(t, offer.sellerSkuId)).toBe(8);

      const { body: asked } = await orderCall(t, 'cancelOrder', [order.id], buyer.token).expect(200);
      expect(asked.refunds).toEqual([
        expect.objectContaining({
          amount: order.total,
          cancel: true,
          restock: true,
          items: [{ sellerSkuId: offer.sellerSkuId, quantity: 2 }],
        }),
      ]);
      const canceled = await published(order.id, (o) => o.status === 'CANCELED');
      const [settled] = canceled.refunds;
      expect(settled).toMatchObject({ status: 'SUCCEEDED', refundId: expect.stringMatching(/^re_/) });
      expect(canceled.orderTimeLines.at(-1)).toMatchObject({
        status: 'CANCELED',
        by: 'system:card-sandbox',
        refundId: settled.refundId,
      });
      expect(await stockOf(t, offer.sellerSkuId)).toBe(10);
      await orderCall(t, 'ship', [order.id], admin).expect(409);
      await orderCall(t, 'cancelOrder', [order.id], buyer.token).expect(409);
    });

    it('should refuse to cancel while a charge is in flight and once shipped (409)', async () => {
      const offer = await offerOfSeller();
      const pending = await ordered([[offer, 1]]);
      await chooseCard(t, buyer, pending.id, 'pm_card_threeDSecureRequired').expect(200);
      await orderCall(t, 'pay', [pending.id], buyer.token).expect(200);
      const inFlight = await orderCall(t, 'cancelOrder', [pending.id], buyer.token).expect(409);
      expect(inFlight.body.message).toContain('being charged');
      expect((await orderOf(pending.id)).status).toBe('PAYMENT_PENDING');

      const shipped = await paid([[offer, 1]]);
      await orderCall(t, 'ship', [shipped.id], admin).expect(200);
      const refused = await orderCall(t, 'cancelOrder', [shipped.id], buyer.token).expect(409);
      expect(refused.body.message).toContain('SHIPPED');
      expect(await stockOf(t, offer.sellerSkuId)).toBe(8);
    });

    it("should refuse another buyer's order (403) and a guest (401)", async () => {
      const offer = await offerOfSeller();
      const order = await ordered([[offer, 1]]);
      const forbidden = await orderCall(t, 'cancelOrder', [order.id], other.token).expect(403);
      expect(forbidden.body).toMatchObject({ status: 403, ...DESIGN_ERROR });
      const guest = await orderCall(t, 'cancelOrder', [order.id]).expect(401);
      expect(guest.body).toMatchObject({ status: 401, ...DESIGN_ERROR });
      expect((await orderOf(order.id)).status).toBe('APPROVED');
      expect(await stockOf(t, offer.sellerSkuId)).toBe(9);
    });

    it.each([
      ['a malformed id', ['not-an-id'], 400],
      ['a number', [42], 400],
      ['no argument', [], 400],
      ['an unknown order', ['0123456789abcdef01234567'], 404],
    ])('should answer %s with the DESIGN §3 shape', async (_, args, status) => {
      const { body } = await orderCall(t, 'cancelOrder', args, buyer.token).expect(status);
      expect(body).toMatchObject({ status, ...DESIGN_ERROR });
    });
  });

  describe('refundOrder', () => {
    it('should refund a delivered order whole for an admin: REFUNDED, stock not back (the goods did not return)', async () => {
      const offer = await offerOfSeller({ price: 1500 });
      const order = await paid([[offer, 2]]);
      await orderCall(t, 'ship', [order.id], admin).expect(200);
      await orderCall(t, 'deliver', [order.id], admin).expect(200);

      const { body: asked } = await refund({ orderId: order.id }).expect(200);
      expect(asked.refunds).toEqual([expect.objectContaining({ amount: order.total, restock: false, cancel: false })]);
      const refunded = await published(order.id, (o) => o.status === 'REFUNDED');
      expect(refunded.orderTimeLines.at(-1)).toMatchObject({ status: 'REFUNDED', by: 'system:card-sandbox' });
      expect(await stockOf(t, offer.sellerSkuId)).toBe(8);
      await refund({ orderId: order.id }).expect(409);
    });

    it("should restock a shipped order when told the goods came back, keeping other orders' reservations", async () => {
      const offer = await offerOfSeller();
      const order = await paid([[offer, 3]]);
      await checkOut(t, other, [{ sellerSkuId: offer.sellerSkuId, quantity: 4 }]);
      await orderCall(t, 'ship', [order.id], admin).expect(200);
      expect(await stockFiguresOf(t, offer.sellerSkuId)).toEqual({ quantity: 3, reserved: 4 });
      await refund({ orderId: order.id, restock: true }).expect(200);
      await published(order.id, (o) => o.status === 'REFUNDED');
      expect(await stockFiguresOf(t, offer.sellerSkuId)).toEqual({ quantity: 6, reserved: 4 });
    });

    it("should refund per item for the order's seller, never more than is left, then the rest", async () => {
      const fern = await offerOfSeller({ price: 1000 });
      const moss = await offerOfSeller({ price: 333, sellerId: fern.sellerId });
      const order = await paid([
        [fern, 3],
        [moss, 2],
      ]);
      // goods 3666 and the shipping line, with VAT at 21 % on both
      expect(order.total).toBe(Math.round((3666 + order.shipping!.amount) * 1.21));

      const { body: first } = await refund(
        { orderId: order.id, items: [{ sellerSkuId: fern.sellerSkuId, quantity: 1 }] },
        seller.token,
      ).expect(200);
      expect(first.refunds[0]).toMatchObject({ amount: 1210, restock: true, cancel: false });
      const partly = await published(order.id, settledRefunds(1));
      expect(partly.status).toBe('PAID');
      expect(partly.orderTimeLines.at(-1)).toMatchObject({ status: 'PAID', refundId: partly.refunds[0].refundId });
      expect(await stockOf(t, fern.sellerSkuId)).toBe(8);

      const over = await refund(
        { orderId: order.id, items: [{ sellerSkuId: fern.sellerSkuId, quantity: 3 }] },
        seller.token,
      ).expect(409);
      expect(over.body).toMatchObject({ status: 409, error: 'Conflict', ...DESIGN_ERROR });
      expect(over.body.message).toContain('Only 2');
      const twice = [
        { sellerSkuId: moss.sellerSkuId, quantity: 2 },
        { sellerSkuId: moss.sellerSkuId, quantity: 1 },
      ];
      await refund({ orderId: order.id, items: twice }, seller.token).expect(409);

      await refund({ orderId: order.id }, seller.token).expect(200);
      const whole = await published(order.id, (o) => o.status === 'REFUNDED');
      expect(whole.refunds.map((one) => one.amount).reduce((a, b) => a + b)).toBe(order.total);
      expect([await stockOf(t, fern.sellerSkuId), await stockOf(t, moss.sellerSkuId)]).toEqual([10, 10]);
    });

    it('should refund once of two whole refunds asked at once', async () => {
      const offer = await offerOfSeller();
      const order = await paid([[offer, 2]]);
      const answers = await Promise.all([refund({ orderId: order.id }), refund({ orderId: order.id })]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const refunded = await published(order.id, (o) => o.status === 'REFUNDED');
      expect(refunded.refunds).toEqual([expect.objectContaining({ status: 'SUCCEEDED', amount: order.total })]);
      expect(await stockOf(t, offer.sellerSkuId)).toBe(10);
    });

    it('should mark the refund FAILED and answer 409 when the provider refuses it (refunded at the provider already)', async () => {
      const offer = await offerOfSeller();
      const order = await paid([[offer, 1]]);
      // Refunded in the provider's dashboard: its webhook names a refund the order never asked for, a no-op.
      await t.app.get(CardPaymentSandbox).refund(order.paymentIntentId!, order.total, 'dashboard-refund');
      const { body } = await refund({ orderId: order.id }).expect(409);
      expect(body.message).toContain('left to refund');
      const after = await orderOf(order.id);
      expect(after).toMatchObject({ status: 'PAID', refunds: [expect.objectContaining({ status: 'FAILED' })] });
      expect(await stockOf(t, offer.sellerSkuId)).toBe(9);
    });

    it('should let no one else refund: the buyer and another user 403, a guest 401', async () => {
      const offer = await offerOfSeller();
      const order = await paid([[offer, 1]]);
      for (const token of [buyer.token, other.token]) {
        const { body } = await refund({ orderId: order.id }, token).expect(403);
        expect(body).toMatchObject({ status: 403, ...DESIGN_ERROR });
      }
      await orderCall(t, 'refundOrder', [{ orderId: order.id }]).expect(401);
      expect((await orderOf(order.id)).refunds).toEqual([]);
    });

    it('should refuse unpaid orders (409)', async () => {
      const order = await ordered([[await offerOfSeller(), 1]]);
      const { body } = await refund({ orderId: order.id }).expect(409);
      expect(body.message).toContain('only paid orders');
    });

    const sku = '0123456789abcdef01234567';
    it.each([
      ['no orderId', () => ({})],
      ['orderId of the wrong type', () => ({ orderId: 42 })],
      ['a malformed orderId', () => ({ orderId: 'abc' })],
      ['items not a list', (orderId: string) => ({ orderId, items: 'all' })],
      ['an empty list of items', (orderId: string) => ({ orderId, items: [] })],
      ['a negative quantity', (orderId: string) => ({ orderId, items: [{ sellerSkuId: sku, quantity: -1 }] })],
      ['a fractional quantity', (orderId: string) => ({ orderId, items: [{ sellerSkuId: sku, quantity: 1.5 }] })],
      ['an operator as sellerSkuId', (orderId: string) => ({ orderId, items: [{ sellerSkuId: { $ne: null } }] })],
      ['restock of the wrong type', (orderId: string) => ({ orderId, restock: 'yes' })],
    ])('should answer %s with 400 in the DESIGN §3 shape', async (_, request) => {
      const order = await paid([[await offerOfSeller(), 1]]);
      const { body } = await refund(request(order.id)).expect(400);
      expect(body).toMatchObject({ status: 400, error: 'Bad Request', ...DESIGN_ERROR });
      expect((await orderOf(order.id)).refunds).toEqual([]);
    });

    it('should answer a seller SKU the order does not have with 400, and an unknown order with 404', async () => {
      const order = await paid([[await offerOfSeller(), 1]]);
      const stranger = await offerOfSeller();
      const items = [{ sellerSkuId: stranger.sellerSkuId, quantity: 1 }];
      const { body } = await refund({ orderId: order.id, items }).expect(400);
      expect(body).toMatchObject({ status: 400, ...DESIGN_ERROR, message: expect.stringContaining('is not in order') });
      await refund({ orderId: '0123456789abcdef01234567' }).expect(404);
    });
  });

  describe('refund webhooks', () => {
    const secret = () => t.config.webhookSecrets.cardPayment;
    const postCard = (body: string, signature: string) =>
      t.http.post('/api/v1/cardpayment').set('content-type', 'application/json').set(SIGNATURE, signature).send(body);
    const refundEvent = (data: object) =>
      JSON.stringify({
        id: `evt_${Math.random().toString(16).slice(2)}`,
        type: 'charge.refunded',
        created: Math.floor(Date.now() / 1000),
        data,
      });

    it('should ignore replayed and forged refund events: no second settlement, no second restock', async () => {
      const offer = await offerOfSeller({ price: 1000 });
      const order = await paid([[offer, 2]]);
      await refund({ orderId: order.id, items: [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }] }).expect(200);
      const settled = await published(order.id, settledRefunds(1));
      expect(await stockOf(t, offer.sellerSkuId)).toBe(9);
      const [done] = settled.refunds;
      const real = {
        id: done.refundId,
        paymentIntentId: settled.paymentIntentId,
        orderId: order.id,
        amount: done.amount,
        currency: 'EUR',
        status: 'SUCCEEDED',
        reference: done.reference,
      };

      const replay = refundEvent(real);
      await postCard(replay, signWebhook(replay, secret())).expect(200, { received: true, duplicate: false });
      const signature = signWebhook(replay, secret());
      await postCard(replay, signature).expect(200, { received: true, duplicate: true });
      const forgedRefund = refundEvent({ ...real, id: 're_0123456789abcdef01234567', amount: 2420 });
      await postCard(forgedRefund, signWebhook(forgedRefund, secret())).expect(200, {
        received: true,
        duplicate: false,
      });
      const forgedFailure = JSON.stringify({ ...JSON.parse(refundEvent(real)), type: 'refund.failed' });
      await postCard(forgedFailure, signWebhook(forgedFailure, secret())).expect(200);
      await postCard(replay, signWebhook(replay, 'not-the-secret')).expect(400);

      const after = await orderOf(order.id);
      expect(after.status).toBe('PAID');
      expect(after.refunds).toEqual([expect.objectContaining({ status: 'SUCCEEDED', refundId: done.refundId })]);
      expect(after.orderTimeLines.filter((entry) => entry.refundId)).toHaveLength(1);
      expect(await stockOf(t, offer.sellerSkuId)).toBe(9);
    });

    it('should refuse a signed refund event of the wrong shape (400)', async () => {
      const body = refundEvent({ id: 're_x', orderId: 'o', amount: 1, currency: 'EUR', status: 'SUCCEEDED' });
      const { body: refused } = await postCard(body, signWebhook(body, secret())).expect(400);
      expect(refused).toMatchObject({ status: 400, error: 'Bad Request' });
    });
  });
});

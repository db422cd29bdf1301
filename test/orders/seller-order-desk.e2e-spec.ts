import { randomUUID } from 'node:crypto';
import { Role } from '../../src/common/principal';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';
import { Buyer, checkOut, createBuyer, OrderBody, orderCall, payOrder } from './support/order-calls';
import { createOffer, Offer } from './support/order-fixtures';

type DeskPage = { content: OrderBody[]; totalElements: number; totalPages: number; number: number; size: number };
type LiveOrder = { event: string; id: string; data: OrderBody };

const address = { name: 'Ann', street: 'Canal Street', city: 'Amsterdam', postalCode: '1011AA', country: 'NL' };
const REPLIES = '/user/topic/default/json';
const DESIGN_ERROR = { path: '/api/v1/bean/request', timestamp: expect.any(String), requestId: expect.any(String) };

/**
 * Issue 24, the seller's order desk: `getSellerOrdersPaged` and `getSellerOrder` (USER, acting for the seller) and
 * the live topic `/topic/seller/{id}/orders`. Orders are made by real checkouts and payments.
 */
describe('seller order desk', () => {
  let t: TestApp;
  let admin: string;
  let seller: Buyer;
  let rival: Buyer;
  let buyer: Buyer;
  let offer: Offer;
  let rivalOffer: Offer;
  const clients: TestStompClient[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { CARD_PAYMENT_WEBHOOK_SECRET: 'card-secret-for-tests' } });
    admin = t.tokenFor(Role.ADMIN);
    [seller, rival, buyer] = [await createBuyer(t), await createBuyer(t), await createBuyer(t)];
    offer = await createOffer(t, { sellerUser: seller, quantity: 50 });
    rivalOffer = await createOffer(t, { sellerUser: rival, quantity: 50 });
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.disconnect()));
    await t.stop();
  });

  const desk = (request: object, token = seller.token) => orderCall(t, 'getSellerOrdersPaged', [request], token);
  const order = (of: Offer, quantity = 1) => checkOut(t, buyer, [{ sellerSkuId: of.sellerSkuId, quantity }]);
  const connect = async (token: string) => {
    const client = await TestStompClient.connect(t.url, { token });
    clients.push(client);
    await client.subscribe(REPLIES);
    return client;
  };

  describe('getSellerOrdersPaged', () => {
    it("should list only the seller's own orders, newest first, paged", async () => {
      const before = (await desk({}).expect(200)).body as DeskPage;
      const [first] = await order(offer);
      const [second] = await order(offer, 2);
      await order(rivalOffer);

      const { body } = await desk({ size: 200 }).expect(200);
      const page = body as DeskPage;
      expect(page.totalElements).toBe(before.totalElements + 2);
      expect(page.content.every((one) => one.embeddedVendor.sellerId === offer.sellerId)).toBe(true);
      expect(page.content.slice(0, 2).map((one) => one.id)).toEqual([second.id, first.id]);

      const { body: paged } = await desk({ size: 1, page: 1 }).expect(200);
      expect(paged).toMatchObject({ number: 1, size: 1, totalElements: page.totalElements });
      expect((paged as DeskPage).content.map((one) => one.id)).toEqual([first.id]);
      const { body: rivals } = await desk({}, rival.token).expect(200);
      expect((rivals as DeskPage).content.map((one) => one.id)).not.toContain(first.id);
    });

    it('should filter by status and by creation time', async () => {
      const [unpaid] = await order(offer);
      const [paid] = await order(offer);
      await payOrder(t, buyer, paid.id, admin, { shippingAddress: address });

      const { body: paidOnly } = await desk({ status: ['PAID'], size: 200 }).expect(200);
      const paidIds = (paidOnly as DeskPage).content.map((one) => one.id);
      expect(paidIds).toContain(paid.id);
      expect(paidIds).not.toContain(unpaid.id);
      expect((paidOnly as DeskPage).content.every((one) => one.status === 'PAID')).toBe(true);

      const createdAt = (await orderCall(t, 'getSellerOrder', [paid.id], seller.token).expect(200)).body as {
        createdAt: string;
      };
      const at = createdAt.createdAt;
      const { body: fromPaid } = await desk({ from: at, size: 200 }).expect(200);
      expect((fromPaid as DeskPage).content.map((one) => one.id)).toEqual([paid.id]);
      const { body: beforePaid } = await desk({ to: at, size: 200 }).expect(200);
      const earlier = (beforePaid as DeskPage).content.map((one) => one.id);
      expect(earlier).toContain(unpaid.id);
      expect(earlier).not.toContain(paid.id);
    });

    it('should give an ADMIN any seller by sellerId, and ask an ADMIN acting for no seller to name one', async () => {
      const [mine] = await order(offer);
      const { body } = await desk({ sellerId: offer.sellerId, size: 200 }, admin).expect(200);
      expect((body as DeskPage).content.map((one) => one.id)).toContain(mine.id);
      expect((await desk({}, admin).expect(400)).body).toMatchObject({ status: 400, ...DESIGN_ERROR });
      await desk({ sellerId: '0123456789abcdef01234567' }, admin).expect(404);
    });

    it("should refuse another seller's id (403), a user acting for no seller (404) and a guest (401)", async () => {
      const refused = await desk({ sellerId: rivalOffer.sellerId }).expect(403);
      expect(refused.body).toMatchObject({ status: 403, error: 'Access denied', ...DESIGN_ERROR });
      await desk({}, buyer.token).expect(404);
      await orderCall(t, 'getSellerOrdersPaged', [{}]).expect(401);
    });

    it.each([
      ['an unknown status', { status: ['SHIPPED', 'LOST'] }],
      ['a status that is not a list', { status: 'PAID' }],
      ['a date that is not ISO-8601', { from: 'yesterday' }],
      ['an impossible date', { to: '2026-02-30T00:00:00Z' }],
      ['a number for a date', { from: 1700000000000 }],
      ['an operator for a date', { from: { $gt: '' } }],
      ['an operator for a seller', { sellerId: { $ne: null } }],
      ['a page below 0', { page: -1 }],
      ['a size of 0', { size: 0 }],
      ['a size above 200', { size: 201 }],
      ['a fractional page', { page: 1.5 }],
    ])('should answer 400 with details for %s', async (_, request) => {
      const { body } = await desk(request).expect(400);
      expect(body).toMatchObject({ status: 400, error: 'Bad Request', ...DESIGN_ERROR });
      expect(body.details).toEqual(expect.any(Array));
    });

    it('should answer 400 for an argument that is not a map', async () => {
      await desk('status=PAID' as unknown as object).expect(400);
    });
  });

  describe('getSellerOrder', () => {
    it("should open the seller's own order, ship and refund it from there", async () => {
      const [mine] = await order(offer, 2);
      await payOrder(t, buyer, mine.id, admin, { shippingAddress: address });
      const { body } = await orderCall(t, 'getSellerOrder', [mine.id], seller.token).expect(200);
      expect(body).toMatchObject({ id: mine.id, status: 'PAID', embeddedVendor: { sellerId: offer.sellerId } });

      const items = [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }];
      await orderCall(t, 'refundOrder', [{ orderId: mine.id, items }], seller.token).expect(200);
      await orderCall(t, 'ship', [mine.id], seller.token).expect(200, 'true');
      const { body: shipped } = await orderCall(t, 'getSellerOrder', [mine.id], seller.token).expect(200);
      expect(shipped).toMatchObject({ status: 'SHIPPED', refunds: [expect.objectContaining({ amount: 1250 })] });

      const { body: trail } = await t.callBean('auditServiceImpl', 'getAuditTrail', ['order', mine.id], {
        token: admin,
      });
      const bySeller = { id: seller.id, name: seller.username, role: 'USER' };
      expect(trail).toEqual([
        expect.objectContaining({ action: 'order.ship', actor: bySeller, target: { type: 'order', id: mine.id } }),
        expect.objectContaining({
          action: 'order.refund',
          actor: bySeller,
          details: expect.objectContaining({ amount: 1250, items }),
        }),
      ]);
    });

    it("should refuse another seller's order and the buyer's (403), a guest (401)", async () => {
      const [theirs] = await order(rivalOffer);
      for (const token of [seller.token, buyer.token]) {
        const { body } = await orderCall(t, 'getSellerOrder', [theirs.id], token).expect(403);
        expect(body).toMatchObject({ status: 403, error: 'Access denied', ...DESIGN_ERROR });
      }
      await orderCall(t, 'getSellerOrder', [theirs.id]).expect(401);
      await orderCall(t, 'getSellerOrder', [theirs.id], rival.token).expect(200);
      await orderCall(t, 'getSellerOrder', [theirs.id], admin).expect(200);
    });

    it('should answer 400 for a malformed id or an operator, 404 for an unknown order', async () => {
      await orderCall(t, 'getSellerOrder', ['not-an-id'], seller.token).expect(400);
      await orderCall(t, 'getSellerOrder', [{ $gt: '' }], seller.token).expect(400);
      const { body } = await orderCall(t, 'getSellerOrder', ['0123456789abcdef01234567'], seller.token).expect(404);
      expect(body).toMatchObject({ status: 404, ...DESIGN_ERROR });
    });
  });

  describe('/topic/seller/{id}/orders', () => {
    const topic = (sellerId: string) => `/topic/seller/${sellerId}/orders`;

    it('should tell the seller of its new, paid and canceled orders, and nobody else', async () => {
      const live = await connect(seller.token);
      const watcher = await connect(admin);
      await live.subscribe(topic(offer.sellerId));
      await watcher.subscribe(topic(offer.sellerId));
      const [paid] = await order(offer, 2);
      const isOf = (id: string, status: string) => (event: LiveOrder) =>
        event.id === id && event.data.status === status;
      expect(await live.next<LiveOrder>(topic(offer.sellerId), isOf(paid.id, 'NEW'))).toMatchObject({
        event: 'order.status',
        data: { id: paid.id, embeddedVendor: { sellerId: offer.sellerId } },
      });
      await payOrder(t, buyer, paid.id, admin, { shippingAddress: address });
      await live.next<LiveOrder>(topic(offer.sellerId), isOf(paid.id, 'PAID'));
      await watcher.next<LiveOrder>(topic(offer.sellerId), isOf(paid.id, 'PAID'));
      // A partial refund keeps the order PAID (its time line repeats the status): not a new paid order.
      await watcher.subscribe(`/topic/order/${paid.id}`);
      const items = [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }];
      await orderCall(t, 'refundOrder', [{ orderId: paid.id, items }], seller.token).expect(200);
      await watcher.next<{ data: { refunds: { status: string }[] } }>(`/topic/order/${paid.id}`, ({ data }) =>
        data.refunds.some((refund) => refund.status === 'SUCCEEDED'),
      );

      const [canceled] = await order(offer);
      await orderCall(t, 'cancelOrder', [canceled.id], buyer.token).expect(200);
      await live.next<LiveOrder>(topic(offer.sellerId), isOf(canceled.id, 'CANCELED'));
      // Everything published before the CANCELED event has arrived by now (one topic, in order).
      const rest = live.messages(topic(offer.sellerId)).map((m) => JSON.parse(m.body) as LiveOrder);
      expect(rest.filter((event) => !['NEW', 'PAID', 'CANCELED'].includes(event.data.status))).toEqual([]);
      expect(rest.filter(isOf(paid.id, 'PAID'))).toEqual([]);
    });

    it.each([
      ['another seller', () => rival.token],
      ['a buyer', () => buyer.token],
    ])('should refuse %s the subscription', async (_, token) => {
      const client = await connect(token());
      const receipt = `r-${randomUUID()}`;
      client.client.subscribe(topic(offer.sellerId), () => undefined, { receipt });
      const reply = await client.next<{ actionId: string; status: number; error: string }>(
        REPLIES,
        (one) => one.actionId === receipt,
      );
      expect(reply).toMatchObject({ status: 403, error: 'Access denied' });
    });
  });
});

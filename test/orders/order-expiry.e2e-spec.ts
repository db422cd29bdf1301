import { OrderExpiry } from '../../src/services/orders/order-expiry';
import { TestStompClient } from '../realtime/stomp-client';
import { Cluster, startCluster } from '../support/cluster';
import { TestApp } from '../support/test-app';
import { Buyer, checkOut, createBuyer, OrderBody, orderCall } from './support/order-calls';
import { createOffer, stockOf } from './support/order-fixtures';

type LiveEvent = { event: string; id: string; data: OrderBody };

/**
 * Unpaid orders expire after ORDER_PAYMENT_TTL (a few seconds here) on a deployment of two instances sharing one
 * database, both sweeping: the order is canceled once, by `system:payment-ttl`, published on its topic, and its stock
 * comes back exactly once.
 */
describe('expiry of unpaid orders on two instances', () => {
  let cluster: Cluster;
  let a: TestApp;
  let b: TestApp;
  let buyer: Buyer;
  let stomp: TestStompClient;

  beforeAll(async () => {
    cluster = await startCluster({ env: { ORDER_PAYMENT_TTL: '3s' } });
    [a, b] = cluster.instances;
    buyer = await createBuyer(a);
    stomp = await TestStompClient.connect(b.url, { token: buyer.token });
  });

  afterAll(async () => {
    await stomp?.disconnect();
    await cluster?.stop();
  });

  const orderOn = async (app: TestApp, id: string): Promise<OrderBody> =>
    (await orderCall(app, 'getOrder', [id], buyer.token).expect(200)).body;

  // A payment left PAYMENT_PENDING past the TTL is decided with the provider: test/orders/order-recovery.e2e-spec.ts.
  it('should cancel an unpaid order by system:payment-ttl, publish it and give its stock back once', async () => {
    const offer = await createOffer(a);
    const [unpaid] = await checkOut(a, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 2 }]);
    const topic = `/topic/order/${unpaid.id}`;
    await stomp.subscribe(topic);
    expect(await stockOf(a, offer.sellerSkuId)).toBe(8);

    const event = await stomp.next<LiveEvent>(topic, (message) => message.data.status === 'CANCELED', 30_000);
    expect(event).toMatchObject({ event: 'order.status', id: unpaid.id });
    expect(event.data.orderTimeLines.at(-1)).toMatchObject({ status: 'CANCELED', by: 'system:payment-ttl' });
    expect(await stockOf(a, offer.sellerSkuId)).toBe(10);

    const canceled = await orderOn(b, unpaid.id);
    expect(canceled.orderTimeLines.filter((entry) => entry.status === 'CANCELED')).toHaveLength(1);
  });

  it('should release stock exactly once when both instances sweep the same expired orders at once', async () => {
    const offer = await createOffer(a, { quantity: 10 });
    const orders: OrderBody[] = [];
    for (let i = 0; i < 5; i++) {
      orders.push(...(await checkOut(a, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 2 }])));
    }
    // No assertion that the stock is now 0: under load the 3 s TTL can pass during the five checkouts, and the
    // background sweep then rightly releases the first orders already. Releasing twice would show below as more than 10.

    // Every unpaid order is due at this time: all sweeps (and the background ones) race for the same orders.
    const later = new Date(Date.now() + 3_600_000);
    const sweeps = [a, b, a, b].map((app) => app.app.get(OrderExpiry).sweep(later));
    const canceledBySweeps = (await Promise.all(sweeps)).reduce((sum, count) => sum + count, 0);
    expect(canceledBySweeps).toBeLessThanOrEqual(orders.length);

    for (const order of orders) {
      const expired = await orderOn(b, order.id);
      expect(expired.status).toBe('CANCELED');
      expect(expired.orderTimeLines.filter((entry) => entry.status === 'CANCELED')).toEqual([
        expect.objectContaining({ by: 'system:payment-ttl' }),
      ]);
    }
    expect(await stockOf(a, offer.sellerSkuId)).toBe(10);
  });
});

import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { CheckoutLocks } from '../../src/services/orders/checkout-lock';
import { Order } from '../../src/services/orders/order.schema';
import { startTestApp, TestApp } from '../support/test-app';
import { CART, createBuyer, orderCall } from './support/order-calls';
import { createOffer, stockOf } from './support/order-fixtures';

describe('orderCheckout under concurrency', () => {
  let t: TestApp;

  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.stop());

  it('should sell exactly the last 5 units to 20 buyers checking out at once', async () => {
    const offer = await createOffer(t, { quantity: 5 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => createBuyer(t)));
    for (const buyer of buyers) {
      await t.callBean(CART, 'addCommerceItem', [offer.sellerSkuId], { token: buyer.token }).expect(200);
    }

    const results = await Promise.all(buyers.map((buyer) => orderCall(t, 'orderCheckout', [], buyer.token)));

    const statuses = results.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 409)).toHaveLength(15);
    expect(await stockOf(t, offer.sellerSkuId)).toBe(0);
    const orderModel = t.app.get<Model<Order>>(getModelToken(Order.name));
    const orders = await orderModel.find({ 'commerceItems.sellerSku': offer.sellerSkuId }).lean();
    expect(orders.flatMap((order) => order.commerceItems).reduce((sum, item) => sum + item.quantity, 0)).toBe(5);
  });

  it('should take every line of a multi-seller checkout or none, giving back what was taken', async () => {
    const plenty = await createOffer(t, { quantity: 10 });
    const scarce = await createOffer(t, { quantity: 2 });
    const [first, second] = [await createBuyer(t), await createBuyer(t)];
    const items = [
      { sellerSkuId: plenty.sellerSkuId, quantity: 3 },
      { sellerSkuId: scarce.sellerSkuId, quantity: 2 },
    ];
    await t.callBean(CART, 'addCommerceItems', [{ items }], { token: first.token }).expect(200);
    await t.callBean(CART, 'addCommerceItems', [{ items }], { token: second.token }).expect(200);

    const results = await Promise.all([first, second].map((buyer) => orderCall(t, 'orderCheckout', [], buyer.token)));

    expect(results.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(await stockOf(t, plenty.sellerSkuId)).toBe(7);
    expect(await stockOf(t, scarce.sellerSkuId)).toBe(0);
  });

  it("should check a buyer's cart out once when they check out twice at the same moment", async () => {
    const offer = await createOffer(t, { quantity: 10 });
    const buyer = await createBuyer(t);
    const item = { sellerSkuId: offer.sellerSkuId, quantity: 2 };
    await t.callBean(CART, 'addCommerceItem', [item], { token: buyer.token }).expect(200);

    const results = await Promise.all([1, 2].map(() => orderCall(t, 'orderCheckout', [], buyer.token)));

    expect(results.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(await stockOf(t, offer.sellerSkuId)).toBe(8);
    expect((await orderCall(t, 'getOrdersFromLoggedUser', [], buyer.token).expect(200)).body).toHaveLength(1);
    await orderCall(t, 'orderCheckout', [], buyer.token).expect(409);
  });

  it("should refuse a second checkout while the buyer's first one runs, and free the lock after", async () => {
    const locks = t.app.get(CheckoutLocks);
    let release!: () => void;
    const first = locks.holding('buyer-x', () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(locks.holding('buyer-x', async () => 'second')).rejects.toThrow('already running');
    release();
    await first;
    await expect(locks.holding('buyer-x', async () => 'third')).resolves.toBe('third');
  });
});

import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';
import { Buyer, checkOut, createBuyer } from './support/order-calls';
import { createOffer } from './support/order-fixtures';

/** The orders report, defined by the orders module, over orders that buyers placed through checkout. */
describe('orders report of checked-out orders', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
  });
  afterAll(() => t.stop());

  const exportOrders = async (): Promise<Map<string, Record<string, string>>> => {
    const res = await t.http.get('/api/v1/reports/orders').set('Authorization', `Bearer ${admin}`).expect(200);
    const [header, ...lines] = res.text.trimEnd().split('\r\n');
    const names = header.split(',');
    const rows = lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i], cell])));
    return new Map(rows.map((row) => [row.id, row]));
  };

  it("should carry each order's buyer and vendor ids", async () => {
    const [ann, bob]: Buyer[] = [await createBuyer(t), await createBuyer(t)];
    const fernShop = await createOffer(t, { price: 700 });
    const mossShop = await createOffer(t, { price: 300, currency: 'USD' });
    const annOrders = await checkOut(t, ann, [
      { sellerSkuId: fernShop.sellerSkuId, quantity: 2 },
      { sellerSkuId: mossShop.sellerSkuId, quantity: 1 },
    ]);
    const [bobOrder] = await checkOut(t, bob, [{ sellerSkuId: mossShop.sellerSkuId, quantity: 3 }]);
    expect(annOrders).toHaveLength(2);

    const report = await exportOrders();
    const expected = [...annOrders.map((order) => ({ order, buyer: ann })), { order: bobOrder, buyer: bob }];
    for (const { order, buyer } of expected) {
      const vendorId = order.currencyCode === 'EUR' ? fernShop.sellerId : mossShop.sellerId;
      expect(report.get(order.id)).toMatchObject({
        status: 'APPROVED',
        buyerId: buyer.id,
        buyer: buyer.username,
        vendorId,
        currencyCode: order.currencyCode,
        total: String(order.total),
      });
    }
  });

  it('should refuse the report to a buyer', async () => {
    const buyer = await createBuyer(t);
    const res = await t.http.get('/api/v1/reports/orders').set('Authorization', `Bearer ${buyer.token}`).expect(403);
    expect(res.body).toMatchObject({ status: 403, error: expect.any(String), message: expect.any(String) });
  });
});

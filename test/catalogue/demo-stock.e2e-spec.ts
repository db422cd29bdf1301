import { DEMO_PASSWORD } from '../../src/seed/demo-seeder';
import { startTestApp, TestApp } from '../support/test-app';

type SellerOffer = {
  id: string;
  sellerId: string;
  quantity: number;
  reserved: number;
  stockByWarehouse: { warehouseId: string; onHand: number }[];
};
type Warehouse = { id: string };

const GEO = 'geoLocationServiceImpl';
const onHand = (offer: SellerOffer) => offer.stockByWarehouse.reduce((sum, entry) => sum + entry.onHand, 0);

/**
 * Issue 24: demo offers keep their stock at their seller's demo warehouse, so Σ on hand = available + reserved holds
 * from the first start and a demo seller adjusts its stock like any seller. Through the public interface: the demo
 * seller signs in with the documented password and uses the offer REST endpoints.
 */
describe('demo stock at the demo warehouses', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
    const { body } = await t.http
      .post('/api/v1/auth/token')
      .send({ username: 'seller.nl', password: DEMO_PASSWORD })
      .expect(200);
    token = (body as { token: string }).token;
  });

  afterAll(() => t.stop());

  const offers = async (): Promise<SellerOffer[]> => {
    const { body } = await t.http
      .get('/api/v1/catalogue/sellers/me/offers?limit=200')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    return (body as { items: SellerOffer[] }).items;
  };

  it('should hold every demo offer on hand at the seller’s warehouse: Σ on hand = available + reserved', async () => {
    const mine = await offers();
    expect(mine.length).toBeGreaterThan(5);
    const { body } = await t.callBean(GEO, 'getShippingAddresses', [mine[0].sellerId]).expect(200);
    const warehouses = (body as Warehouse[]).map((warehouse) => warehouse.id);
    expect(warehouses).toHaveLength(1);
    for (const offer of mine) {
      expect(onHand(offer)).toBe(offer.quantity + offer.reserved);
      expect(offer.stockByWarehouse).toEqual([{ warehouseId: warehouses[0], onHand: offer.quantity }]);
    }
  });

  it('should let the demo seller adjust a demo offer’s stock at its warehouse, keeping the invariant', async () => {
    const [offer] = (await offers()).filter((one) => one.quantity > 0);
    const warehouse = offer.stockByWarehouse[0].warehouseId;
    const { body } = await t.http
      .post(`/api/v1/catalogue/offers/${offer.id}/stock/${warehouse}/adjust`)
      .set('Authorization', `Bearer ${token}`)
      .send({ delta: -offer.quantity - 1 })
      .expect(409);
    expect(body).toMatchObject({ status: 409, requestId: expect.any(String) });
    const { body: adjusted } = await t.http
      .post(`/api/v1/catalogue/offers/${offer.id}/stock/${warehouse}/adjust`)
      .set('Authorization', `Bearer ${token}`)
      .send({ delta: 3 })
      .expect(200);
    expect(adjusted).toMatchObject({
      quantity: offer.quantity + 3,
      stockByWarehouse: [{ warehouseId: warehouse, onHand: offer.quantity + 3 }],
    });
  });
});

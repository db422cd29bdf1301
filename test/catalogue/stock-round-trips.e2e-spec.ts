import { EmbeddedMongoServer } from '@ccb/embedded-mongo';
import { getConnectionToken } from '@nestjs/mongoose';
import { CommandStartedEvent } from 'mongodb';
import { Connection } from 'mongoose';
import { DEMO_PASSWORD } from '../../src/seed/demo-seeder';
import { startTestApp, TestApp } from '../support/test-app';

type SellerOffer = {
  id: string;
  productId: string;
  quantity: number;
  stockByWarehouse: { warehouseId: string; onHand: number }[];
};
type DetailOffer = { offerId: string; quantity: number; inStock: boolean };

const SEARCH = 'ecomRemainsSearchEngineServiceImpl';

/** The collections a stock adjustment reads and writes: the offer, its seller, and the storefront index's. */
const CATALOGUE = new Set(['seller_skus', 'sellers', 'products', 'skus', 'attributes']);
const INDEX = new Set(['storefront_index', 'storefront_facets']);

/**
 * Issue 23: what one stock adjustment costs is its database round trips (bench/README.md, "Scale, trade and the
 * stock adjustment"). Counted with the driver's command monitoring on the seller's own REST call: the offer with its
 * seller, its product's storefront entry and the product's offers in one read, the conditional update, and the
 * storefront index's refresh, derived from that read and the update's answer, in one write. The counters are written
 * only when the product's listing changes.
 */
describe('round trips of a stock adjustment', () => {
  let server: EmbeddedMongoServer;
  let t: TestApp;
  let token: string;
  const commands: string[] = [];

  beforeAll(async () => {
    server = await EmbeddedMongoServer.start({ port: 0 });
    const uri = `${server.uri.replace(/\/$/, '')}/trips?monitorCommands=true`;
    t = await startTestApp({ env: { MONGODB_URI: uri, SEED_DEMO: 'true' } });
    t.app
      .get<Connection>(getConnectionToken())
      .getClient()
      .on('commandStarted', (event: CommandStartedEvent) => {
        const collection = String(event.command[event.commandName]);
        if (CATALOGUE.has(collection) || INDEX.has(collection)) commands.push(`${event.commandName} ${collection}`);
      });
    const { body } = await t.http
      .post('/api/v1/auth/token')
      .send({ username: 'seller.nl', password: DEMO_PASSWORD })
      .expect(200);
    token = (body as { token: string }).token;
  });

  afterAll(async () => {
    await t.stop();
    await server.stop();
  });

  async function adjusted(offer: SellerOffer, delta: number): Promise<{ offer: SellerOffer; sent: string[] }> {
    commands.length = 0;
    const { body } = await t.http
      .post(`/api/v1/catalogue/offers/${offer.id}/stock/${offer.stockByWarehouse[0].warehouseId}/adjust`)
      .set('Authorization', `Bearer ${token}`)
      .send({ delta })
      .expect(200);
    return { offer: body as SellerOffer, sent: [...commands] };
  }

  async function offersInStock(): Promise<SellerOffer[]> {
    const { body } = await t.http
      .get('/api/v1/catalogue/sellers/me/offers?limit=200')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    return (body as { items: SellerOffer[] }).items.filter((offer) => offer.quantity > 1);
  }

  async function detailOffer(offer: SellerOffer): Promise<DetailOffer | undefined> {
    const { body } = await t.callBean(SEARCH, 'getProductDetail', [offer.productId]).expect(200);
    return (body as { offers: DetailOffer[] }).offers.find((one) => one.offerId === offer.id);
  }

  it('should read the offer with its seller and index sources once, update it once, and write the index once', async () => {
    const [offer] = await offersInStock();
    const { offer: after, sent } = await adjusted(offer, 1);
    expect(after.quantity).toBe(offer.quantity + 1);
    expect(sent).toEqual(['aggregate seller_skus', 'findAndModify seller_skus', 'update storefront_index']);
    expect(await detailOffer(offer)).toMatchObject({ quantity: offer.quantity + 1, inStock: true });
  });

  /** An offer of the seller's that is its product's only one in stock: selling it out unlists the product. */
  async function anOnlyOfferInStock(): Promise<SellerOffer> {
    for (const offer of await offersInStock()) {
      const { body } = await t.callBean(SEARCH, 'getProductDetail', [offer.productId]).expect(200);
      const inStock = (body as { offers: DetailOffer[] }).offers.filter((one) => one.inStock);
      if (inStock.length === 1 && inStock[0].offerId === offer.id) return offer;
    }
    throw new Error('The demo seller has no offer that is the only one in stock of its product');
  }

  it('should move the filter counters in one more write when the product sells out, and back when restocked', async () => {
    const offer = await anOnlyOfferInStock();
    const listedBefore = await listedTotal();
    const { sent } = await adjusted(offer, -offer.quantity);
    expect(sent).toEqual([
      'aggregate seller_skus',
      'findAndModify seller_skus',
      'update storefront_index',
      'update storefront_facets',
    ]);
    expect(await detailOffer(offer)).toMatchObject({ quantity: 0, inStock: false });
    expect(await listedTotal()).toBe(listedBefore - 1);
    const { sent: restocked } = await adjusted(offer, offer.quantity);
    expect(restocked).toContain('update storefront_facets');
    expect(await listedTotal()).toBe(listedBefore);
  });

  async function listedTotal(): Promise<number> {
    const { body } = await t.callBean(SEARCH, 'listProducts', [{}]).expect(200);
    return (body as { total: number }).total;
  }
});

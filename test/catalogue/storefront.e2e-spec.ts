import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { SellerSku } from '../../src/services/catalogue/seller-sku.schema';
import { checkOut, createBuyer } from '../orders/support/order-calls';
import { createOffer } from '../orders/support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { attributeId, demo, inStockOffers, productOf, skuOf } from './support/demo-facets';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';
const MISSING_ID = '0123456789abcdef01234567';

interface CheapestOffer {
  offerId: string;
  sellerId: string;
  sellerName: string;
  price: number;
  currency: string;
  quantity: number;
}
interface Attribute {
  attributeId: string;
  name: string;
  values: string[];
}
interface Listed {
  id: string;
  name: string;
  description: string;
  image: string | null;
  attributes: Attribute[];
  cheapestOffer: CheapestOffer;
}
interface Listing {
  items: Listed[];
  page: number;
  size: number;
  total: number;
}
interface Detail {
  id: string;
  name: string;
  attributes: Attribute[];
  skus: { id: string; code: string; name: string; attributes: Attribute[] }[];
  offers: (CheapestOffer & { sku: string; inStock: boolean })[];
}

type Offer = (typeof demo.sellerSkus)[number];

/** Products listed for the offers, computed from the demo data: id → cheapest offer. */
function expectedListing(offers: Offer[]): Map<string, Offer> {
  const cheapest = new Map<string, Offer>();
  for (const offer of offers) {
    const current = cheapest.get(String(offer.product));
    if (!current || offer.price < current.price || (offer.price === current.price && offer._id < current._id)) {
      cheapest.set(String(offer.product), offer);
    }
  }
  return cheapest;
}

const hasValue = (entries: { attribute: unknown; values: string[] }[], attribute: string, value: string) =>
  entries.some((entry) => String(entry.attribute) === attribute && entry.values.includes(value));

describe('storefront listing and product detail (ecomRemainsSearchEngineServiceImpl)', () => {
  let t: TestApp;
  const call = (fn: string, args: unknown[]) => t.callBean(BEAN, fn, args);
  const list = async (query: object): Promise<Listing> => (await call('listProducts', [query]).expect(200)).body;
  const detail = async (id: string): Promise<Detail> => (await call('getProductDetail', [id]).expect(200)).body;
  /** Every page of a listing, as one list of items. */
  const listAll = async (query: object): Promise<Listed[]> => {
    const items: Listed[] = [];
    for (let page = 0; ; page++) {
      const result = await list({ ...query, page, size: 100 });
      items.push(...result.items);
      if (items.length >= result.total || result.items.length === 0) return items;
    }
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
  });

  afterAll(() => t.stop());

  describe('listProducts', () => {
    it('should list each published product with an in-stock offer once, with its cheapest in-stock offer', async () => {
      const expected = expectedListing(inStockOffers());
      const items = await listAll({});
      expect(items.map((item) => item.id).sort()).toEqual([...expected.keys()].sort());
      for (const item of items) {
        const offer = expected.get(item.id)!;
        expect(item.cheapestOffer).toMatchObject({
          offerId: String(offer._id),
          sellerId: String(offer.seller),
          price: offer.price,
          currency: offer.currency,
          quantity: offer.quantity,
        });
        expect(item.cheapestOffer.sellerName).toBe(demo.sellers.find((s) => s._id.equals(offer.seller))!.name);
        expect(item.name).toBe(productOf(offer).name);
        expect(item.image).toBe(productOf(offer).images[0]);
      }
      const light = items[0].attributes.find((attribute) => attribute.attributeId === attributeId('light'))!;
      expect(light.name).toBe('Light');
    });

    it('should page: total is all matches, pages are consecutive slices of one order', async () => {
      const first = await list({ page: 0, size: 10 });
      const second = await list({ page: 1, size: 10 });
      const both = await list({ page: 0, size: 20 });
      expect(first).toMatchObject({ page: 0, size: 10, total: expectedListing(inStockOffers()).size });
      expect(first.items).toHaveLength(10);
      expect([...first.items, ...second.items].map((i) => i.id)).toEqual(both.items.map((i) => i.id));
      const beyond = await list({ page: 1000, size: 10 });
      expect(beyond).toMatchObject({ items: [], total: first.total });
    });

    it('should sort by the cheapest offer price, checked against each product detail', async () => {
      for (const sort of ['price', '-price']) {
        const items = await listAll({ sort, currency: 'EUR' });
        expect(items.length).toBeGreaterThan(5);
        const prices = items.map((item) => item.cheapestOffer.price);
        const ascending = [...prices].sort((a, b) => a - b);
        expect(prices).toEqual(sort === 'price' ? ascending : ascending.reverse());
        for (const item of items.slice(0, 5)) {
          const offers = (await detail(item.id)).offers.filter((o) => o.inStock && o.currency === 'EUR');
          expect(item.cheapestOffer.price).toBe(Math.min(...offers.map((offer) => offer.price)));
        }
      }
    });

    it('should sort by name both ways, names as the details give them', async () => {
      for (const sort of ['name', '-name']) {
        const items = await listAll({ sort });
        const names = items.map((item) => item.name);
        const ascending = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(names).toEqual(sort === 'name' ? ascending : ascending.reverse());
        expect((await detail(items[0].id)).name).toBe(items[0].name);
      }
    });

    it('should sort the newest products first', async () => {
      const older = await createOffer(t);
      const newer = await createOffer(t);
      const { items } = await list({ sort: 'newest', size: 2 });
      expect(items.map((item) => item.cheapestOffer.offerId)).toEqual([newer.sellerSkuId, older.sellerSkuId]);
    });

    it('should find products by a word of their name through the text index', async () => {
      const expected = demo.products.filter((p) => p.published && /\bficus\b/i.test(p.name)).map((p) => p.name);
      const items = await listAll({ q: 'FICUS' });
      expect(expected.length).toBeGreaterThan(1);
      expect(items.map((item) => item.name).sort()).toEqual(expected.sort());
      // Without a sort, the best match first: both words are in one name.
      expect((await list({ q: 'lyrata ficus' })).items[0].name).toBe('Ficus lyrata');
      expect(await list({ q: 'nosuchplantword' })).toMatchObject({ items: [], total: 0 });
      // Regular-expression syntax is a word to the text index, never a pattern.
      expect(await list({ q: '.*' })).toMatchObject({ items: [], total: 0 });
    });

    it('should keep the cheapest offer within a price range and currency', async () => {
      const [minPrice, maxPrice] = [1000, 2000];
      const offers = inStockOffers().filter((o) => o.currency === 'EUR' && o.price >= minPrice && o.price <= maxPrice);
      const expected = expectedListing(offers);
      const demoProducts = new Set(demo.products.map((product) => String(product._id)));
      // Other tests add offers of their own products: compare the demo products' rows.
      const items = (await listAll({ minPrice, maxPrice, currency: 'EUR' })).filter((i) => demoProducts.has(i.id));
      expect(items.map((item) => [item.id, item.cheapestOffer.offerId]).sort()).toEqual(
        [...expected].map(([id, offer]) => [id, String(offer._id)]).sort(),
      );
    });

    it('should filter by product attributes and by the SKU attributes of the offer', async () => {
      const light = attributeId('light');
      const shady = inStockOffers().filter((offer) => hasValue(productOf(offer).attributes, light, 'Shade'));
      const byProduct = await listAll({ filters: [{ attributeId: light, values: ['Shade'] }] });
      expect(byProduct.map((item) => item.id).sort()).toEqual([...expectedListing(shady).keys()].sort());

      const form = attributeId('form');
      const seeds = inStockOffers().filter((offer) => hasValue(skuOf(offer).attributes, form, 'Seeds'));
      const bySku = await listAll({ filters: [{ attributeId: form, values: ['Seeds'] }] });
      expect(bySku.map((item) => item.cheapestOffer.offerId).sort()).toEqual(
        [...expectedListing(seeds).values()].map((offer) => String(offer._id)).sort(),
      );
      const both = await listAll({
        filters: [
          { attributeId: light, values: ['Shade'] },
          { attributeId: form, values: ['Seeds'] },
        ],
        categories: ['Houseplants'],
      });
      const expected = seeds.filter((o) => shady.includes(o) && productOf(o).categories.includes('Houseplants'));
      expect(both.map((item) => item.id).sort()).toEqual([...expectedListing(expected).keys()].sort());
    });

    it('should sort a one-value attribute filter by the price of its offer meeting it, both ways, page by page', async () => {
      const [light, form] = [attributeId('light'), attributeId('form')];
      const filters: [string, string, Offer[]][] = [
        [light, 'Shade', inStockOffers().filter((offer) => hasValue(productOf(offer).attributes, light, 'Shade'))],
        [form, 'Seeds', inStockOffers().filter((offer) => hasValue(skuOf(offer).attributes, form, 'Seeds'))],
      ];
      const demoProducts = new Set(demo.products.map((product) => String(product._id)));
      for (const [id, value, offers] of filters) {
        for (const [sort, direction] of [
          ['price', 1],
          ['-price', -1],
        ] as const) {
          const rows = [...expectedListing(offers)].map(([product, offer]) => ({
            id: product,
            offerId: String(offer._id),
            price: offer.price,
          }));
          rows.sort((a, b) => direction * (a.price - b.price || (a.id < b.id ? -1 : 1)));
          const items: Listed[] = [];
          for (let page = 0, total = 1; items.length < total; page++) {
            const result = await list({ filters: [{ attributeId: id, values: [value] }], sort, page, size: 7 });
            if (result.items.length === 0) break;
            total = result.total;
            items.push(...result.items);
          }
          // Other tests add offers of their own products: compare the demo products' rows, in their order.
          const shown = items.filter((item) => demoProducts.has(item.id));
          const seen = shown.map((item) => ({
            id: item.id,
            offerId: item.cheapestOffer.offerId,
            price: item.cheapestOffer.price,
          }));
          expect(seen).toEqual(rows);
        }
      }
    });

    it('should drop a product at once when a checkout takes its last unit', async () => {
      const offer = await createOffer(t, { quantity: 1, price: 777 });
      const product = await list({ q: (await detailOfOffer(offer.sellerSkuId)).name.split(' ')[1] });
      expect(product.items.map((item) => item.cheapestOffer.offerId)).toEqual([offer.sellerSkuId]);
      await checkOut(t, await createBuyer(t), [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
      const after = await list({ q: product.items[0].name.split(' ')[1] });
      expect(after).toMatchObject({ items: [], total: 0 });
      const { offers } = await detail(product.items[0].id);
      expect(offers).toEqual([expect.objectContaining({ offerId: offer.sellerSkuId, quantity: 0, inStock: false })]);
    });

    it('should leave out offers whose seller withdrew them (active: false); a missing flag counts as active', async () => {
      const offer = await createOffer(t, { price: 900 });
      const { id, name } = await detailOfOffer(offer.sellerSkuId);
      const listedOffers = async () =>
        (await list({ q: name.split(' ')[1] })).items.map((i) => i.cheapestOffer.offerId);
      const offers = t.app.get<Model<SellerSku>>(getModelToken(SellerSku.name));
      const setActive = (active: boolean) =>
        offers.updateOne({ _id: offer.sellerSkuId }, { $set: { active } }, { strict: false }).exec();
      expect(await listedOffers()).toEqual([offer.sellerSkuId]);
      await setActive(false);
      expect(await listedOffers()).toEqual([]);
      expect((await detail(id)).offers).toEqual([]);
      await setActive(true);
      expect(await listedOffers()).toEqual([offer.sellerSkuId]);
    });

    /** The detail of the product of an offer made by the fixture (its name is "Fern <tag>"). */
    async function detailOfOffer(offerId: string): Promise<Detail> {
      const { items } = await list({ sort: 'newest', size: 5 });
      return detail(items.find((item) => item.cheapestOffer.offerId === offerId)!.id);
    }

    it.each([
      ['an unknown sort', { sort: 'cheapest' }, 'sort'],
      ['size 0', { size: 0 }, 'size'],
      ['size 1000', { size: 1000 }, 'size'],
      ['a negative page', { page: -1 }, 'page'],
      ['a fractional page', { page: 1.5 }, 'page'],
      ['a text query over 200 characters', { q: 'a'.repeat(201) }, 'q'],
      ['a text query that is an operator object', { q: { $regex: '.*' } }, 'q'],
      ['filters that are not a list', { filters: { light: 'Shade' } }, 'filters'],
      ['an operator object as attribute id', { filters: [{ attributeId: { $gt: '' }, values: ['x'] }] }, 'filters'],
      ['an operator object as a value', { filters: [{ attributeId: MISSING_ID, values: [{ $ne: 1 }] }] }, 'filters'],
      ['a price given as text', { minPrice: '5' }, 'minPrice'],
      ['a negative price', { maxPrice: -1 }, 'maxPrice'],
      ['a lower-case currency', { currency: 'eur' }, 'currency'],
      ['categories with an operator object', { categories: [{ $ne: null }] }, 'categories'],
    ])('should refuse %s with a 400', async (_name, query, field) => {
      const response = await call('listProducts', [query]).expect(400);
      expectErrorShape(response.body, 400);
      expect(JSON.stringify(response.body.details ?? response.body.message)).toContain(field);
    });

    it('should refuse a price range upside down (400) and an unknown attribute (404)', async () => {
      expectErrorShape((await call('listProducts', [{ minPrice: 10, maxPrice: 5 }]).expect(400)).body, 400);
      const unknown = await call('listProducts', [{ filters: [{ attributeId: MISSING_ID, values: ['x'] }] }]);
      expect(unknown.status).toBe(404);
      expectErrorShape(unknown.body, 404);
    });
  });

  describe('getProductDetail', () => {
    it('should give the product with labelled attributes, its SKUs and all its offers, cheapest first', async () => {
      const product = demo.products.find(
        (p) => p.published && demo.skus.filter((s) => s.product.equals(p._id)).length > 2,
      )!;
      const offers = demo.sellerSkus.filter((offer) => offer.product.equals(product._id));
      const result = await detail(String(product._id));
      expect(result.name).toBe(product.name);
      expect(result.skus.map((sku) => sku.id).sort()).toEqual(
        demo.skus
          .filter((s) => s.product.equals(product._id))
          .map((s) => String(s._id))
          .sort(),
      );
      expect(result.offers.map((offer) => offer.offerId).sort()).toEqual(offers.map((o) => String(o._id)).sort());
      const prices = result.offers.map((offer) => offer.price);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
      for (const offer of result.offers) {
        const stored = offers.find((o) => String(o._id) === offer.offerId)!;
        expect(offer).toMatchObject({
          sku: String(stored.sku),
          quantity: stored.quantity,
          inStock: stored.quantity > 0,
        });
        expect(offer.sellerName).toBe(demo.sellers.find((s) => s._id.equals(stored.seller))!.name);
      }
      expect(result.attributes.map((a) => a.name)).toEqual([
        'Light',
        'Watering',
        'Pet safe',
        'Height',
        'Hardy down to',
      ]);
      expect(result.skus[0].attributes.map((a) => a.name)).toContain('Form');
    });

    it('should answer 400 for a malformed id and 404 for an unknown or unpublished product', async () => {
      const draft = demo.products.find((p) => !p.published)!;
      expectErrorShape((await call('getProductDetail', ['not-an-id']).expect(400)).body, 400);
      expectErrorShape((await call('getProductDetail', [{ $ne: null }]).expect(400)).body, 400);
      expectErrorShape((await call('getProductDetail', [MISSING_ID]).expect(404)).body, 404);
      expectErrorShape((await call('getProductDetail', [String(draft._id)]).expect(404)).body, 404);
    });
  });
});

function expectErrorShape(body: Record<string, unknown>, status: number): void {
  expect(body).toMatchObject({ status, error: expect.any(String), message: expect.any(String) });
  expect(body).toHaveProperty('path');
  expect(body).toHaveProperty('timestamp');
  expect(body).toHaveProperty('requestId');
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
}

import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Product } from '../../src/services/catalogue/product.schema';
import { SellerSku } from '../../src/services/catalogue/seller-sku.schema';
import { Seller } from '../../src/services/catalogue/seller.schema';
import { Sku } from '../../src/services/catalogue/sku.schema';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';
const PRODUCTS = 130;
const SIZE = 20;
/** The README's cap on the matches relevance ranks for several words (the cheapest ones); the rest follow by price. */
const RELEVANCE_CANDIDATES = 100;

/**
 * Per product `i`, a name matching "zinnia" in one of the four ways relevance scores: a whole name word (8), the
 * beginning of a name word (4), a name word one typo away (2), or only a word of the description (1); and its
 * relevance to "zinnia annual", "annual" being a word of the description (1) of the first three.
 */
const KINDS = [
  { name: (i: number) => `Zinnia ${i}`, description: 'An annual', score: 8, twoWords: 9 },
  { name: (i: number) => `Zinniana ${i}`, description: 'An annual', score: 4, twoWords: 5 },
  { name: (i: number) => `Zinnai ${i}`, description: 'An annual', score: 2, twoWords: 3 },
  { name: (i: number) => `Plant ${i}`, description: 'Like a zinnia', score: 1, twoWords: 1 },
];
const priceOf = (i: number) => 100 + ((i * 37) % 61);

type Row = { id: string; name: string; price: number; createdAt: number; score: number; twoWords: number };
type Listed = { id: string; name: string; cheapestOffer: { price: number } };
type Page = { items: Listed[]; total: number };

const byId = (a: Row, b: Row) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const ORDERS: Record<string, (a: Row, b: Row) => number> = {
  price: (a, b) => a.price - b.price || byId(a, b),
  '-price': (a, b) => b.price - a.price || byId(b, a),
  name: (a, b) => byText(a.name, b.name) || byId(a, b),
  '-name': (a, b) => byText(b.name, a.name) || byId(b, a),
  newest: (a, b) => b.createdAt - a.createdAt || byId(b, a),
};

/** The README's relevance order of one word: every match, best first, ties by price (then id). */
function relevanceOrder(rows: Row[]): Row[] {
  return [...rows].sort((a, b) => b.score - a.score || ORDERS.price(a, b));
}

/**
 * The README's relevance order of several words: the cheapest matches best first (ties by price, then id), then the
 * others by price.
 */
function cappedRelevanceOrder(rows: Row[]): Row[] {
  const byPrice = [...rows].sort(ORDERS.price);
  const ranked = byPrice.slice(0, RELEVANCE_CANDIDATES).sort((a, b) => b.twoWords - a.twoWords || ORDERS.price(a, b));
  return [...ranked, ...byPrice.slice(RELEVANCE_CANDIDATES)];
}

/**
 * More matches than relevance ranks, each page of every sort compared with the order computed here from what the test
 * wrote; then a product sold out and one renamed, which the next search reflects.
 */
describe('storefront search: every sort paged in its order', () => {
  let t: TestApp;
  const rows: Row[] = [];
  const offerIds: Types.ObjectId[] = [];
  const model = <T>(name: string) => t.app.get<Model<T>>(getModelToken(name));
  const page = async (query: object): Promise<Page> =>
    (await t.callBean(BEAN, 'listProducts', [query]).expect(200)).body as Page;

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'false', BEAN_RATE_LIMIT: '100000' } });
    const seller = await model<Seller>(Seller.name).create({ name: 'Zinnia growers', country: 'NL' });
    const products = await model<Product>(Product.name).insertMany(
      Array.from({ length: PRODUCTS }, (_, i) => ({
        name: KINDS[i % 4].name(i),
        description: KINDS[i % 4].description,
        published: true,
      })),
    );
    const skus = await model<Sku>(Sku.name).insertMany(
      products.map((product, i) => ({ product: product._id, code: `Z${i}`, name: `Zinnia pot ${i}` })),
    );
    const offers = await model<SellerSku>(SellerSku.name).insertMany(
      skus.map((sku, i) => ({
        seller: seller._id,
        sku: sku._id,
        product: sku.product,
        price: priceOf(i),
        currency: 'EUR',
        quantity: 3,
      })),
    );
    offerIds.push(...offers.map((offer) => offer._id));
    // The schema's timestamps: each product's creation date, which `newest` orders by.
    const stored = await model<Product & { createdAt: Date }>(Product.name).find({}).lean().exec();
    const createdAt = new Map(stored.map((p) => [String(p._id), new Date(p.createdAt).getTime()]));
    products.forEach((product, i) => {
      const id = String(product._id);
      rows.push({
        id,
        name: product.name,
        price: priceOf(i),
        createdAt: createdAt.get(id)!,
        score: KINDS[i % 4].score,
        twoWords: KINDS[i % 4].twoWords,
      });
    });
  }, 120_000);

  afterAll(() => t.stop());

  async function expectPages(query: object, expected: Row[]): Promise<void> {
    for (let at = 0; at * SIZE < expected.length + SIZE; at++) {
      const body = await page({ ...query, page: at, size: SIZE });
      expect(body.total).toBe(expected.length);
      const shown = body.items.map((item) => ({ id: item.id, price: item.cheapestOffer.price }));
      const wanted = expected.slice(at * SIZE, (at + 1) * SIZE).map(({ id, price }) => ({ id, price }));
      expect(shown).toEqual(wanted);
    }
  }

  it('should page every sort in its order, in all currencies and in one, with the total of all matches', async () => {
    for (const [sort, order] of Object.entries(ORDERS)) {
      await expectPages({ q: 'zinnia', sort }, [...rows].sort(order));
      await expectPages({ q: 'zinnia', sort, currency: 'EUR' }, [...rows].sort(order));
    }
    expect((await page({ q: 'zinnia', currency: 'USD' })).total).toBe(0);
  }, 120_000);

  it('should rank every match of one word by relevance, tier by tier, each in price order', async () => {
    await expectPages({ q: 'zinnia' }, relevanceOrder(rows));
    await expectPages({ q: 'zinnia', currency: 'EUR' }, relevanceOrder(rows));
    // Pages straddling the tiers (33 whole words, then 33 beginnings, 32 typos, 32 descriptions), and one starting
    // past the first two tiers.
    for (const [at, size] of [
      [1, 30],
      [3, 30],
      [4, 17],
    ]) {
      const shown = await page({ q: 'zinnia', page: at, size });
      const wanted = relevanceOrder(rows).slice(at * size, (at + 1) * size);
      expect(shown.items.map((item) => item.id)).toEqual(wanted.map((row) => row.id));
    }
  }, 120_000);

  it('should rank the cheapest matches of several words by relevance and page the rest by price', async () => {
    expect(rows.length).toBeGreaterThan(RELEVANCE_CANDIDATES);
    await expectPages({ q: 'zinnia annual' }, cappedRelevanceOrder(rows));
    // A page straddling the cap: its end comes from the price order.
    const straddling = await page({ q: 'zinnia annual', page: 3, size: 30 });
    expect(straddling.items.map((item) => item.id)).toEqual(
      cappedRelevanceOrder(rows)
        .slice(90, 120)
        .map((row) => row.id),
    );
  }, 120_000);

  it('should reflect a sold-out offer and a rename on the next search', async () => {
    await model<SellerSku>(SellerSku.name)
      .updateOne({ _id: offerIds[0] }, { $set: { quantity: 0 } })
      .exec();
    await model<Product>(Product.name)
      .updateOne({ _id: new Types.ObjectId(rows[4].id) }, { $set: { name: 'Rose 4' } })
      .exec();
    const left = rows.filter((row) => row.id !== rows[0].id && row.id !== rows[4].id);
    await expectPages({ q: 'zinnia', sort: 'price' }, left.sort(ORDERS.price));
    expect((await page({ q: 'rose' })).items.map((item) => item.id)).toEqual([rows[4].id]);
  }, 120_000);
});

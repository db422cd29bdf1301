import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import fc from 'fast-check';
import { Connection, Model, mongo, Types } from 'mongoose';
import { Attribute, AttributeType } from '../../src/services/catalogue/attribute.schema';
import { Product } from '../../src/services/catalogue/product.schema';
import { SellerSku } from '../../src/services/catalogue/seller-sku.schema';
import { Seller } from '../../src/services/catalogue/seller.schema';
import { Sku } from '../../src/services/catalogue/sku.schema';
import { TYPO_MIN_LENGTH, withinOneEdit, wordsOf } from '../../src/services/catalogue/search-terms';
import { startTestApp, TestApp } from '../support/test-app';
import { countsOf, listedProductsNamed } from './support/products-list';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';
const SEED = 20261127;
const RUNS = 200;
const PRODUCTS = 6;
const SKUS_PER_PRODUCT = 2;
const SELLERS = 3;
const WORDS = ['palm', 'maple', 'fern', 'ficus', 'monstera', 'orchid'];
const COUNTRIES = ['NL', 'FR', 'DE', 'JP'];
const CURRENCIES = ['EUR', 'USD'];

type Doc = mongo.BSON.Document;
type Facet = { value: string; count: number };
type Op = { kind: string; apply: (t: TestApp) => Promise<unknown> };

const ids = (prefix: number, n: number) =>
  Array.from({ length: n }, (_, i) => new Types.ObjectId(`${prefix}${String(i).padStart(23, '0')}`.slice(0, 24)));
const productIds = ids(1, PRODUCTS);
const sellerIds = ids(2, SELLERS);
const skuIds = ids(3, PRODUCTS * SKUS_PER_PRODUCT);
const attributeIds = ids(4, 2);
const attributeOf = (n: number) => ({
  _id: attributeIds[n],
  code: `a${n}`,
  name: `Attribute ${n}`,
  type: AttributeType.OPTION,
});
const productOfSku = (sku: number) => productIds[Math.floor(sku / SKUS_PER_PRODUCT)];

const model = <T>(t: TestApp, name: string): Model<T> => t.app.get<Model<T>>(getModelToken(name));

/** Random catalogue writes through the models, of every kind the index must follow. */
function operations(): fc.Arbitrary<Op> {
  const product = fc.integer({ min: 0, max: PRODUCTS - 1 });
  const sku = fc.integer({ min: 0, max: skuIds.length - 1 });
  const seller = fc.integer({ min: 0, max: SELLERS - 1 });
  const offers = (t: TestApp) => model<SellerSku>(t, SellerSku.name);
  const products = (t: TestApp) => model<Product>(t, Product.name);
  const attributes = (t: TestApp) => model<Attribute>(t, Attribute.name);
  const offerOf = (s: number, k: number) => ({ seller: sellerIds[s], sku: skuIds[k] });
  return fc.oneof(
    fc.record({ s: seller, k: sku, price: fc.integer({ min: 1, max: 60 }) }).map(({ s, k, price }): Op => ({
      kind: 'price',
      apply: (t) => offers(t).updateOne(offerOf(s, k), { $set: { price } }).exec(),
    })),
    fc.record({ s: seller, k: sku, quantity: fc.integer({ min: 0, max: 2 }) }).map(({ s, k, quantity }): Op => ({
      kind: 'stock',
      apply: (t) => offers(t).findOneAndUpdate(offerOf(s, k), { $set: { quantity } }).exec(),
    })),
    fc.record({ s: seller, k: sku, active: fc.boolean() }).map(({ s, k, active }): Op => ({
      kind: 'active',
      apply: (t) => offers(t).updateOne(offerOf(s, k), { $set: { active } }).exec(),
    })),
    fc
      .record({ s: seller, k: sku, price: fc.integer({ min: 1, max: 60 }), c: fc.constantFrom(...CURRENCIES) })
      .map(({ s, k, price, c }): Op => ({
        kind: 'new offer',
        apply: async (t) => {
          const offer = { ...offerOf(s, k), product: productOfSku(k), price, currency: c, quantity: 1 };
          await offers(t)
            .create(offer)
            .catch((error: { code?: number }) => {
              if (error.code !== 11000) throw error;
            });
        },
      })),
    fc.record({ s: seller, k: sku }).map(({ s, k }): Op => ({
      kind: 'delete offer',
      apply: (t) => offers(t).deleteOne(offerOf(s, k)).exec(),
    })),
    fc.record({ s: seller }).map(({ s }): Op => ({
      kind: 'seller sold out',
      apply: (t) =>
        offers(t)
          .updateMany({ seller: sellerIds[s] }, { $set: { quantity: 0 } })
          .exec(),
    })),
    fc.record({ s: seller, country: fc.constantFrom(...COUNTRIES) }).map(({ s, country }): Op => ({
      kind: 'seller country',
      apply: (t) => model<Seller>(t, Seller.name).updateOne({ _id: sellerIds[s] }, { $set: { country } }).exec(),
    })),
    fc.record({ p: product, word: fc.constantFrom(...WORDS) }).map(({ p, word }): Op => ({
      kind: 'rename',
      apply: async (t) => {
        const found = await products(t).findById(productIds[p]).exec();
        if (!found) return;
        found.name = `${word} ${p}`;
        await found.save();
      },
    })),
    fc.record({ p: product, published: fc.boolean() }).map(({ p, published }): Op => ({
      kind: 'publish',
      apply: (t) => products(t).updateOne({ _id: productIds[p] }, { $set: { published } }).exec(),
    })),
    fc
      .record({ p: product, origin: fc.option(fc.constantFrom(...COUNTRIES), { nil: undefined }) })
      .map(({ p, origin }): Op => ({
        kind: 'origin',
        apply: (t) =>
          products(t)
            .updateOne(
              { _id: productIds[p] },
              origin ? { $set: { countryOfOrigin: origin } } : { $unset: { countryOfOrigin: 1 } },
            )
            .exec(),
      })),
    fc.record({ p: product }).map(({ p }): Op => ({
      kind: 'delete product',
      apply: (t) =>
        products(t)
          .deleteMany({ _id: { $in: [productIds[p]] } })
          .exec(),
    })),
    fc.record({ a: fc.integer({ min: 0, max: 1 }), word: fc.constantFrom(...WORDS) }).map(({ a, word }): Op => ({
      kind: 'attribute renamed',
      apply: (t) =>
        attributes(t)
          .updateOne({ _id: attributeIds[a] }, { $set: { name: word, unit: word.slice(0, 2) } })
          .exec(),
    })),
    fc.record({ a: fc.integer({ min: 0, max: 1 }) }).map(({ a }): Op => ({
      kind: 'attribute deleted or back',
      apply: async (t) => {
        const deleted = await attributes(t).deleteOne({ _id: attributeIds[a] }).exec();
        if (deleted.deletedCount === 0) await attributes(t).create(attributeOf(a));
      },
    })),
    fc.record({ k: sku, a: fc.integer({ min: 0, max: 1 }) }).map(({ k, a }): Op => ({
      kind: 'sku attribute',
      apply: (t) =>
        model<Sku>(t, Sku.name)
          .updateOne(
            { _id: skuIds[k] },
            { $set: { attributes: [{ attribute: attributeIds[a], values: [`v${k % 2}`] }] } },
          )
          .exec(),
    })),
    fc.record({ p: product, word: fc.constantFrom(...WORDS) }).map(({ p, word }): Op => ({
      kind: 'recreate product',
      apply: (t) => createProduct(t, p, word).catch(() => undefined),
    })),
  );
}

function createProduct(t: TestApp, p: number, word: string) {
  const origin = COUNTRIES[p % COUNTRIES.length];
  const genetic = p % 2 === 0 ? 'SPECIES' : 'HYBRID';
  return model<Product>(t, Product.name).create({
    _id: productIds[p],
    name: `${word} ${p}`,
    published: true,
    countryOfOrigin: origin,
    geneticType: genetic,
    attributes: [{ attribute: attributeIds[p % 2], values: [word] }],
  });
}

type AttributeView = { attributeId: string; name: string; unit: string | null; values: string[] };

/**
 * The source collections as they are after a write sequence, read once per check: nothing writes them while the
 * index's answers are compared with what they say (one read per check instead of one per expected answer).
 */
interface Sources {
  products: Doc[];
  skus: Doc[];
  offers: Doc[];
  sellers: Doc[];
  attributes: Doc[];
}

async function readSources(db: mongo.Db): Promise<Sources> {
  const [products, skus, offers, sellers, attributes] = await Promise.all(
    ['products', 'skus', 'seller_skus', 'sellers', 'attributes'].map((name) => db.collection(name).find({}).toArray()),
  );
  return { products, skus, offers, sellers, attributes };
}

const publishedOf = (sources: Sources) => sources.products.filter((product) => product.published === true);
const inStockActive = (offer: Doc) => offer.quantity > 0 && offer.active !== false;

/** The attribute views of `holder`'s attribute values, labelled from the `attributes` collection (deleted: left out). */
function expectedAttributes(sources: Sources, holder: Doc): AttributeView[] {
  const byId = new Map(sources.attributes.map((label) => [String(label._id), label]));
  return ((holder.attributes ?? []) as Doc[]).flatMap((entry) => {
    const label = byId.get(String(entry.attribute));
    if (!label) return [];
    return [{ attributeId: String(entry.attribute), name: label.name, unit: label.unit ?? null, values: entry.values }];
  });
}

/**
 * The listing the storefront must give, computed straight from the source collections; `within`: the offers of a
 * price range (each product shown with its cheapest in-stock offer within it).
 */
function expectedListing(sources: Sources, currency?: string, within = (_offer: Doc) => true) {
  const live = new Set(publishedOf(sources).map((p) => String(p._id)));
  const shown = sources.offers.filter(
    (offer) =>
      inStockActive(offer) &&
      live.has(String(offer.product)) &&
      (!currency || offer.currency === currency) &&
      within(offer),
  );
  return rowsByPrice(shown, 1);
}

/**
 * The listing narrowed to one attribute value, computed from the sources: each published product with an in-stock
 * active offer meeting it (the product has the value, or the offer's SKU does), shown with the cheapest such offer.
 */
function expectedWithValue(sources: Sources, attribute: Types.ObjectId, value: string, sort: 'price' | '-price') {
  const hasValue = (holder: Doc | undefined) =>
    ((holder?.attributes ?? []) as Doc[]).some(
      (entry) => String(entry.attribute) === String(attribute) && (entry.values as string[]).includes(value),
    );
  const productById = new Map(publishedOf(sources).map((product) => [String(product._id), product]));
  const skuById = new Map(sources.skus.map((sku) => [String(sku._id), sku]));
  const meeting = sources.offers.filter(inStockActive).filter((offer) => {
    const product = productById.get(String(offer.product));
    return product && (hasValue(product) || hasValue(skuById.get(String(offer.sku))));
  });
  return rowsByPrice(meeting, sort === 'price' ? 1 : -1);
}

/**
 * One row per product with its cheapest offer among `offers` (the lower offer id on a tie), sorted by that price in
 * `direction`, then by product id in that direction.
 */
function rowsByPrice(offers: Doc[], direction: 1 | -1) {
  const cheapest = new Map<string, Doc>();
  for (const offer of offers) {
    const current = cheapest.get(String(offer.product));
    const better =
      !current ||
      offer.price < current.price ||
      (offer.price === current.price && String(offer._id) < String(current._id));
    if (better) cheapest.set(String(offer.product), offer);
  }
  return [...cheapest]
    .map(([product, offer]) => ({ id: product, offerId: String(offer._id), price: offer.price as number }))
    .sort((x, y) => direction * (x.price - y.price || (x.id < y.id ? -1 : 1)));
}

/** Products per value of a facet, over the in-stock active offers of published products. */
function expectedCounts(sources: Sources, valuesOf: (product: Doc, seller: Doc | undefined) => unknown[]) {
  const byId = new Map(publishedOf(sources).map((p) => [String(p._id), p]));
  const sellerById = new Map(sources.sellers.map((s) => [String(s._id), s]));
  const counted = new Map<string, Set<string>>();
  for (const offer of sources.offers.filter(inStockActive)) {
    const product = byId.get(String(offer.product));
    if (!product) continue;
    for (const value of valuesOf(product, sellerById.get(String(offer.seller)))) {
      if (typeof value !== 'string' || value === '') continue;
      const set = counted.get(value) ?? new Set<string>();
      set.add(String(offer.product));
      counted.set(value, set);
    }
  }
  return Object.fromEntries([...counted].map(([value, set]) => [value, set.size]));
}

/** The README's match of a query word: it begins a word of the texts, or is one edit from a name's word (5+ letters). */
function matchesWord(q: string, product: Doc): boolean {
  const names = wordsOf([product.name, ...((product.translations ?? []) as Doc[]).map((t) => t.name)].join(' '));
  const texts = wordsOf(
    [product.description, ...((product.translations ?? []) as Doc[]).map((t) => t.description)].join(' '),
  );
  if ([...names, ...texts].some((word) => word.startsWith(q))) return true;
  return q.length >= TYPO_MIN_LENGTH && names.some((name) => name.length >= TYPO_MIN_LENGTH && withinOneEdit(q, name));
}

const asCounts = (facets: Facet[]) => Object.fromEntries(facets.map((facet) => [facet.value, facet.count]));

/**
 * 200 random write sequences (fixed seed) on a small catalogue, each followed by every index answer compared with a
 * full recomputation from the source collections: the listing in all currencies and per currency (members, the
 * cheapest offer, the price order; price ranges), the whole-catalogue filter counters, the products list with its in-stock offer
 * counts, the products list searched by name (trigram look-up and scan), and a search by word.
 */
describe('storefront index against a full recomputation (property)', () => {
  let t: TestApp;
  let db: mongo.Db;

  beforeAll(async () => {
    // About 2,000 calls a run: above the default per-client rate limit when the machine is quiet.
    t = await startTestApp({ env: { BEAN_RATE_LIMIT: '100000' } });
    db = t.app.get<Connection>(getConnectionToken()).db!;
    for (let a = 0; a < attributeIds.length; a++) await model<Attribute>(t, Attribute.name).create(attributeOf(a));
    for (let s = 0; s < SELLERS; s++) {
      await model<Seller>(t, Seller.name).create({ _id: sellerIds[s], name: `Seller ${s}`, country: COUNTRIES[s] });
    }
    for (let p = 0; p < PRODUCTS; p++) await createProduct(t, p, WORDS[p]);
    for (let k = 0; k < skuIds.length; k++) {
      await model<Sku>(t, Sku.name).create({
        _id: skuIds[k],
        product: productOfSku(k),
        code: `S${k}`,
        name: `Sku ${k}`,
      });
      const offer = {
        seller: sellerIds[k % SELLERS],
        sku: skuIds[k],
        product: productOfSku(k),
        currency: CURRENCIES[k % 2],
      };
      await model<SellerSku>(t, SellerSku.name).create({ ...offer, price: 10 + k, quantity: 1 });
    }
  });

  afterAll(() => t.stop());

  const call = async (fn: string, args: unknown[]) => (await t.callBean(BEAN, fn, args).expect(200)).body as unknown;

  async function listed(query: object) {
    const body = (await call('listProducts', [{ sort: 'price', ...query, size: 100 }])) as {
      items: { id: string; cheapestOffer: { offerId: string; price: number }; attributes: AttributeView[] }[];
      total: number;
    };
    expect(body.total).toBe(body.items.length);
    return body.items.map((item) => ({
      id: item.id,
      offerId: item.cheapestOffer.offerId,
      price: item.cheapestOffer.price,
      attributes: item.attributes.map(({ attributeId, name, unit, values }) => ({ attributeId, name, unit, values })),
    }));
  }

  /** Each listed row with its product's attribute views as the sources label them. */
  function withAttributes(sources: Sources, rows: { id: string }[]) {
    const byId = new Map(sources.products.map((product) => [String(product._id), product]));
    return rows.map((row) => ({ ...row, attributes: expectedAttributes(sources, byId.get(row.id)!) }));
  }

  /** A published product's detail: its SKUs' attribute views as the sources label them. */
  async function expectDetailAgreesWithSources(sources: Sources, product: Types.ObjectId): Promise<void> {
    if (!publishedOf(sources).some((source) => String(source._id) === String(product))) return;
    const detail = (await call('getProductDetail', [String(product)])) as {
      skus: { id: string; attributes: AttributeView[] }[];
    };
    const expected = sources.skus
      .filter((sku) => String(sku.product) === String(product))
      .map((sku) => ({ id: String(sku._id), attributes: expectedAttributes(sources, sku) }));
    const shown = detail.skus.map((sku) => ({
      id: sku.id,
      attributes: sku.attributes.map(({ attributeId, name, unit, values }) => ({ attributeId, name, unit, values })),
    }));
    expect(shown).toEqual(expected);
  }

  /**
   * A product's own value and SKUs' values (SKUs of several products share them), each sorted by price both ways (the kept prices per value, read in their
   * index's order), with their totals (the value's kept counter).
   */
  async function expectValueFiltersAgreeWithSources(sources: Sources): Promise<void> {
    const filters = [
      { a: 0, value: WORDS[0] },
      { a: 0, value: 'v0' },
      { a: 1, value: 'v1' },
    ];
    for (const { a, value } of filters) {
      if (!sources.attributes.some((attribute) => String(attribute._id) === String(attributeIds[a]))) continue;
      for (const sort of ['price', '-price'] as const) {
        const query = { filters: [{ attributeId: String(attributeIds[a]), values: [value] }], sort };
        const shown = (await listed(query)).map(({ id, offerId, price }) => ({ id, offerId, price }));
        expect(shown).toEqual(expectedWithValue(sources, attributeIds[a], value, sort));
      }
    }
  }

  /**
   * Price ranges in all currencies and in one, sorted by price (candidates read through the price keys) and by
   * newest (a page and one count of the price keys): the products with an in-stock offer within the range, also
   * those whose cheapest in-stock offer is below it.
   */
  async function expectPriceRangesAgreeWithSources(sources: Sources): Promise<void> {
    const byId = (rows: { id: string }[]) => [...rows].sort((x, y) => (x.id < y.id ? -1 : 1));
    for (const [minPrice, maxPrice, currency] of [
      [15, 30],
      [15, 30, 'EUR'],
      [25, 25, 'EUR'],
    ] as const) {
      const within = (offer: Doc) => offer.price >= minPrice && offer.price <= maxPrice;
      const expected = withAttributes(sources, expectedListing(sources, currency, within));
      const range = { minPrice, maxPrice, ...(currency ? { currency } : {}) };
      expect(await listed(range)).toEqual(expected);
      expect(byId(await listed({ ...range, sort: 'newest' }))).toEqual(byId(expected));
    }
  }

  async function expectIndexAgreesWithSources(): Promise<void> {
    const sources = await readSources(db);
    expect(await listed({})).toEqual(withAttributes(sources, expectedListing(sources)));
    for (const currency of CURRENCIES) {
      expect(await listed({ currency })).toEqual(withAttributes(sources, expectedListing(sources, currency)));
    }
    await expectPriceRangesAgreeWithSources(sources);
    await expectDetailAgreesWithSources(sources, productIds[0]);
    await expectValueFiltersAgreeWithSources(sources);
    const facets = async (fn: string) => asCounts((await call(fn, [''])) as Facet[]);
    expect(await facets('getCountriesOfOriginFilter')).toEqual(expectedCounts(sources, (p) => [p.countryOfOrigin]));
    expect(await facets('getCountriesOfSellersFilter')).toEqual(expectedCounts(sources, (_p, s) => [s?.country]));
    expect(await facets('getGeneticTypeFilter')).toEqual(expectedCounts(sources, (p) => [p.geneticType]));
    const listedIds = expectedListing(sources)
      .map((row) => row.id)
      .sort();
    const productsList = (await call('getProductsListFilter', [])) as Facet[];
    expect(productsList.map((facet) => facet.value).sort()).toEqual(listedIds);
    // The kept in-stock offer counts, and a name search by trigrams (3 letters) and by a scan (1 letter).
    expect(asCounts(productsList)).toEqual(countsOf(await listedProductsNamed(db, '')));
    for (const term of [WORDS[0].slice(1, 4), 'A']) {
      const named = (await call('getProductsListByRequestFilter', [term])) as Facet[];
      expect(asCounts(named)).toEqual(countsOf(await listedProductsNamed(db, term)));
    }
    const word = WORDS[0];
    const names = sources.products.filter((product) => listedIds.includes(String(product._id)));
    const withWord = names.filter((p) => String(p.name).split(' ').includes(word)).map((p) => String(p._id));
    const found = ((await call('listProducts', [{ q: word, size: 100 }])) as { items: { id: string; name: string }[] })
      .items;
    expect(
      found
        .filter((item) => item.name.split(' ').includes(word))
        .map((item) => item.id)
        .sort(),
    ).toEqual(withWord.sort());
    await expectSearchAgreesWithSources(sources, names);
  }

  /**
   * A search by a word's beginning, by a typo and by a whole word, sorted by price: the matching listed products (a
   * word of a name or description beginning with it, or a name's word within one edit) in the listing's order.
   */
  async function expectSearchAgreesWithSources(sources: Sources, listedProducts: Doc[]): Promise<void> {
    const byId = new Map(listedProducts.map((product) => [String(product._id), product]));
    for (const q of ['pal', 'monstrea', 'ficus']) {
      const expected = expectedListing(sources).filter((row) => matchesWord(q, byId.get(row.id)!));
      const body = (await call('listProducts', [{ q, sort: 'price', size: 100 }])) as {
        items: { id: string; cheapestOffer: { price: number } }[];
        total: number;
      };
      expect(body.items.map((item) => ({ id: item.id, price: item.cheapestOffer.price }))).toEqual(
        expected.map(({ id, price }) => ({ id, price })),
      );
      expect(body.total).toBe(expected.length);
    }
  }

  it('should answer as the source collections say after every random write sequence', async () => {
    await expectIndexAgreesWithSources();
    await fc.assert(
      fc.asyncProperty(fc.array(operations(), { minLength: 1, maxLength: 5 }), async (ops) => {
        for (const op of ops) await op.apply(t);
        await expectIndexAgreesWithSources();
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 600_000);
});

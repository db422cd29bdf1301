import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import { Connection, Model, Types } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { Role } from '../../src/common/principal';
import { Attribute } from '../../src/services/catalogue/attribute.schema';
import {
  CATALOGUE_COLLECTIONS,
  CatalogueRevisionService,
} from '../../src/services/catalogue/catalogue-revision.service';
import { Product } from '../../src/services/catalogue/product.schema';
import { SellerSku } from '../../src/services/catalogue/seller-sku.schema';
import { Seller } from '../../src/services/catalogue/seller.schema';
import { Sku } from '../../src/services/catalogue/sku.schema';
import { checkOut, createBuyer } from '../orders/support/order-calls';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';
import { asCounts, attributeId, inStockOffers, productOf } from './support/demo-facets';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';
type Facet = { value: string; label: string; count: number };
type Call = [fn: string, args: unknown[], lang?: string];

const model = <T>(t: TestApp, name: string): Model<T> => t.app.get<Model<T>>(getModelToken(name));

async function facets(t: TestApp, [fn, args, lang]: Call): Promise<Facet[]> {
  return (await t.callBean(BEAN, fn, args, { lang }).expect(200)).body;
}

/** The in-stock offers per product in the demo data: a product with one offer leaves the filters with its stock. */
function onlyOfferOfAProduct() {
  const offers = inStockOffers();
  return offers.find((offer) => offers.filter((other) => other.product.equals(offer.product)).length === 1)!;
}

/**
 * Three app instances on one database: `a` (which starts the embedded server and seeds the demo), `b` and
 * `uncached` (FACET_CACHE_ENTRIES=0) connected to it with MONGODB_URI, as several instances of the shop would be.
 */
describe('storefront filter cache', () => {
  let a: TestApp;
  let b: TestApp;
  let uncached: TestApp;

  beforeAll(async () => {
    a = await startTestApp({ env: { SEED_DEMO: 'true' } });
    const connection = a.app.get<Connection>(getConnectionToken());
    const uri = `mongodb://${connection.host}:${connection.port}/${connection.name}`;
    b = await startTestApp({ env: { MONGODB_URI: uri } });
    uncached = await startTestApp({ env: { MONGODB_URI: uri, FACET_CACHE_ENTRIES: '0' } });
  }, 120_000);

  afterAll(async () => {
    await uncached?.stop();
    await b?.stop();
    await a?.stop();
  });

  /** A published product with one SKU offered in stock by a new seller, written through `t`'s models. */
  async function offerOf(t: TestApp, product: Types.ObjectId, quantity = 3): Promise<string> {
    const tag = randomUUID().slice(0, 8);
    const sku = await model<Sku>(t, Sku.name).create({ product, code: `C-${tag}`, name: 'Cutting' });
    const seller = await model<Seller>(t, Seller.name).create({ name: `Nursery ${tag}`, country: 'NL' });
    const offer = await model<SellerSku>(t, SellerSku.name).create({
      seller: seller._id,
      sku: sku._id,
      product,
      price: 500,
      currency: 'EUR',
      quantity,
    });
    return String(offer._id);
  }

  async function createProduct(t: TestApp, countryOfOrigin: string): Promise<Types.ObjectId> {
    const body = { name: `Cache fern ${randomUUID().slice(0, 8)}`, published: true, countryOfOrigin };
    const response = await t.http
      .post('/api/v1/catalogue/products')
      .set('Authorization', `Bearer ${t.tokenFor(Role.ADMIN)}`)
      .send(body)
      .expect(201);
    return new Types.ObjectId(String(response.body.id));
  }

  const countryCount = async (t: TestApp, country: string) =>
    asCounts(await facets(t, ['getCountriesOfOriginFilter', ['']]))[country];

  it('should answer every filter as an instance without the cache does, in each language', async () => {
    const calls: Call[] = [
      ['getCountriesOfOriginFilter', [''], 'en'],
      ['getCountriesOfOriginFilter', [''], 'de'],
      ['getCountriesOfSellersFilter', [''], 'de'],
      ['getCountriesOfSellersFilter', [''], 'en'],
      ['getGeneticTypeFilter', [String(onlyOfferOfAProduct().sku)]],
      ['getDynamicFilters', ['', 'OPTION']],
      ['getDynamicFilters', ['', 'value']],
      ['getDynamicOptionFilters', ['', attributeId('light')]],
      ['getDynamicValueFilters', ['', attributeId('pot-size')]],
      ['getProductsListFilter', []],
      ['getProductsListByRequestFilter', ['a']],
    ];
    for (const call of [...calls, ...calls]) {
      expect(await facets(a, call)).toEqual(await facets(uncached, call));
    }
  });

  it("should drop a product from every instance's filters as soon as a checkout takes its last units", async () => {
    const offer = onlyOfferOfAProduct();
    const product = String(offer.product);
    const country = productOf(offer).countryOfOrigin;
    const list: Call = ['getProductsListFilter', []];
    const inList = async (t: TestApp) => (await facets(t, list)).some((facet) => facet.value === product);
    expect(await inList(a)).toBe(true);
    expect(await inList(b)).toBe(true);
    const before = await countryCount(b, country);

    await checkOut(a, await createBuyer(a), [{ sellerSkuId: String(offer._id), quantity: offer.quantity }]);

    expect(await inList(a)).toBe(false);
    expect(await inList(b)).toBe(false);
    expect(await countryCount(b, country)).toBe(before - 1);
    expect(await facets(a, list)).toEqual(await facets(uncached, list));
  });

  it("should keep every instance's product listing and detail in step with a checkout", async () => {
    const product = await createProduct(b, 'NL');
    const offerId = await offerOf(b, product, 1);
    const detailOf = async (t: TestApp) =>
      (await t.callBean(BEAN, 'getProductDetail', [String(product)]).expect(200)).body as {
        name: string;
        offers: object[];
      };
    // "Cache fern <tag>": the tag is a word of this product's name alone.
    const tag = (await detailOf(a)).name.split(' ')[2];
    const listing = async (t: TestApp) =>
      (await t.callBean(BEAN, 'listProducts', [{ q: tag }]).expect(200)).body as {
        items: { id: string }[];
        total: number;
      };
    for (const t of [a, b]) {
      expect((await listing(t)).items.map((item) => item.id)).toEqual([String(product)]);
      expect((await detailOf(t)).offers).toEqual([expect.objectContaining({ offerId, quantity: 1, inStock: true })]);
    }

    await checkOut(a, await createBuyer(a), [{ sellerSkuId: offerId, quantity: 1 }]);

    for (const t of [a, b]) {
      expect(await listing(t)).toMatchObject({ items: [], total: 0 });
      expect((await detailOf(t)).offers).toEqual([expect.objectContaining({ offerId, quantity: 0, inStock: false })]);
    }
    expect(await listing(a)).toEqual(await listing(uncached));
    expect(await detailOf(b)).toEqual(await detailOf(uncached));
  });

  it('should show a product created on one instance in the next filter call of another', async () => {
    expect(await countryCount(a, 'IS')).toBeUndefined();
    const product = await createProduct(b, 'IS');
    await offerOf(b, product);
    expect(await countryCount(a, 'IS')).toBe(1);

    await model<Product>(b, Product.name).findOneAndUpdate({ _id: product }, { countryOfOrigin: 'FO' }).exec();
    expect(await countryCount(a, 'IS')).toBeUndefined();
    expect(await countryCount(a, 'FO')).toBe(1);
  });

  it('should see an offer removed with a raw driver call through the document storage bean', async () => {
    const offerId = await offerOf(a, await createProduct(a, 'GL'));
    expect(await countryCount(b, 'GL')).toBe(1);
    const args = [a.app.get<Connection>(getConnectionToken()).name, 'seller_skus', offerId];
    const token = a.tokenFor(Role.ADMIN);
    await a.callBean('documentStorageServiceImpl', 'removeDocument', args, { token }).expect(200);
    expect(await countryCount(b, 'GL')).toBeUndefined();
  });

  it('should see offers changed with raw driver calls through STOMP /request/document', async () => {
    const offerId = await offerOf(a, await createProduct(a, 'SJ'));
    expect(await countryCount(b, 'SJ')).toBe(1);
    const replies = '/user/topic/default/json';
    const admin = await TestStompClient.connect(a.url, { token: a.tokenFor(Role.ADMIN) });
    try {
      await admin.subscribe(replies);
      const filter = { _id: { $oid: offerId } };
      const update = { $set: { quantity: 0 } };
      const request = { collectionName: 'seller_skus', requestType: 'UPDATE', filter, update, actionId: 'u' };
      admin.send('/request/document', request);
      type Reply = { actionId: string; payload: unknown };
      const reply = await admin.next<Reply>(replies, (candidate) => candidate.actionId === 'u');
      expect(reply.payload).toEqual({ matchedCount: 1, modifiedCount: 1 });
    } finally {
      await admin.disconnect();
    }
    expect(await countryCount(b, 'SJ')).toBeUndefined();
  });

  describe('catalogue revision', () => {
    const revision = () => a.app.get(CatalogueRevisionService).current();
    const sellers = () => model<Seller>(a, Seller.name);
    const newSeller = () => ({ _id: new Types.ObjectId(), name: `Bump ${randomUUID().slice(0, 8)}`, country: 'NL' });
    const stored = async () => sellers().create(newSeller());
    const replacement = () => ({ name: `Replaced ${randomUUID().slice(0, 8)}`, country: 'BE' });

    const writes: [string, () => Promise<unknown>][] = [
      ['create (save)', () => sellers().create(newSeller())],
      ['insertOne (save)', () => sellers().insertOne(newSeller())],
      ['document save', async () => (await stored()).set('name', 'Renamed').save()],
      ['insertMany', () => sellers().insertMany([newSeller(), newSeller()])],
      ['bulkWrite', () => sellers().bulkWrite([{ insertOne: { document: newSeller() } }])],
      ['bulkSave', () => sellers().bulkSave([new (sellers())(newSeller())])],
      ['updateOne', async () => sellers().updateOne({ _id: (await stored())._id }, { name: 'Renamed' })],
      ['updateMany', async () => sellers().updateMany({ _id: (await stored())._id }, { name: 'Renamed' })],
      ['replaceOne', async () => sellers().replaceOne({ _id: (await stored())._id }, replacement())],
      ['findOneAndUpdate', async () => sellers().findByIdAndUpdate((await stored())._id, { name: 'Renamed' })],
      ['findOneAndReplace', async () => sellers().findOneAndReplace({ _id: (await stored())._id }, replacement())],
      ['findOneAndDelete', async () => sellers().findByIdAndDelete((await stored())._id)],
      ['deleteOne', async () => sellers().deleteOne({ _id: (await stored())._id })],
      ['deleteMany', async () => sellers().deleteMany({ _id: (await stored())._id })],
      ['document updateOne', async () => (await stored()).updateOne({ name: 'Renamed' })],
      ['document deleteOne', async () => (await stored()).deleteOne()],
    ];

    it('should name the collections of the catalogue models for raw writes', () => {
      const names = [Attribute, Product, Sku, Seller, SellerSku].map((m) => model(a, m.name).collection.collectionName);
      expect(new Set(names)).toEqual(CATALOGUE_COLLECTIONS);
    });

    it.each(writes)('should be bumped after %s', async (_, write) => {
      await stored();
      const before = await revision();
      await write();
      expect(await revision()).toBeGreaterThan(before);
    });

    it('should be bumped after an unordered insertMany that wrote part of its documents and failed', async () => {
      const existing = await stored();
      const before = await revision();
      const written = newSeller();
      const failed = sellers().insertMany([existing.toObject(), written], { ordered: false });
      await expect(failed).rejects.toMatchObject({ code: 11000 });
      expect(await sellers().exists({ _id: written._id })).toBeTruthy();
      expect(await revision()).toBeGreaterThan(before);
    });

    it("should fail a write whose bump fails, and report a failed write's own error", async () => {
      const db = a.app.get<Connection>(getConnectionToken()).db!;
      const existing = await stored();
      // A validator no revision passes: every bump fails meanwhile.
      await db.command({ collMod: 'catalogue_revisions', validator: { revision: { $lt: 0 } } });
      try {
        const written = newSeller();
        await expect(sellers().create(written)).rejects.toMatchObject({ codeName: 'DocumentValidationFailure' });
        expect(await sellers().exists({ _id: written._id })).toBeTruthy();
        await expect(sellers().insertMany([existing.toObject()])).rejects.toMatchObject({ code: 11000 });
      } finally {
        await db.command({ collMod: 'catalogue_revisions', validator: {} });
      }
    });

    it('should be bumped by the stock reservation of an order made through the gateway', async () => {
      const offerId = await offerOf(a, await createProduct(a, 'NO'), 2);
      const before = await revision();
      await checkOut(a, await createBuyer(a), [{ sellerSkuId: offerId, quantity: 1 }]);
      expect(await revision()).toBeGreaterThan(before);
    });
  });

  it.each(['-1', 'many', '2.5'])('should stop the start naming FACET_CACHE_ENTRIES=%s', async (value) => {
    await expect(startTestApp({ env: { FACET_CACHE_ENTRIES: value } })).rejects.toThrow(
      /Invalid configuration[\s\S]*FACET_CACHE_ENTRIES/,
    );
  });
});

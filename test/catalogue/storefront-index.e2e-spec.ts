import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import { Connection, Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { Role } from '../../src/common/principal';
import { Product } from '../../src/services/catalogue/product.schema';
import { SellerSku } from '../../src/services/catalogue/seller-sku.schema';
import { Seller } from '../../src/services/catalogue/seller.schema';
import { Sku } from '../../src/services/catalogue/sku.schema';
import { EmbeddedDatabase } from '../../src/database/embedded-database';
import { demoId } from '../../src/seed/demo-id';
import { demoWarehouseId } from '../../src/seed/demo-warehouses';
import { checkOut, createBuyer } from '../orders/support/order-calls';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';
const ADMIN_BEAN = 'catalogueAdminServiceImpl';
/** Countries no demo product comes from: each fixture takes one, so its counter is its own. */
const UNUSED_ORIGINS = [
  'IS',
  'FJ',
  'MN',
  'BT',
  'LA',
  'KH',
  'MG',
  'NA',
  'BW',
  'ZM',
  'UY',
  'PY',
  'EC',
  'GT',
  'HN',
  'SV',
  'MW',
  'MZ',
];
/** The demo sellers the fixtures' offers belong to (the demo marketplace is seeded on `a`). */
const SELLER = 'seller.nl';
const OTHER_SELLER = 'seller.fr';
type Facet = { value: string; label: string; count: number };

const model = <T>(t: TestApp, name: string): Model<T> => t.app.get<Model<T>>(getModelToken(name));

/** A product of its own for each test: a unique word in its name and a country of origin no other product has. */
interface Fixture {
  productId: string;
  skuId: string;
  offerId: string;
  word: string;
  origin: string;
}

/** What the storefront shows of a fixture's product through one instance. */
interface Shown {
  listed: { offerId: string; price: number; name: string }[];
  detail: { status: number; name?: string; offers?: { offerId: string; price: number; inStock: boolean }[] };
  originCount: number;
  skuOriginCount: number;
  named: { value: string; count: number }[];
}

/**
 * Two app instances on one database (`a` seeds the demo and starts the embedded server, `b` connects to it), as a
 * deployment runs them: after each kind of catalogue write, made through either instance, the next call of both
 * shows it in the listing, the detail, the filters (whole catalogue and narrowed to the SKU) and the search. `a`
 * answers through the storefront's result cache (its embedded database keeps the commit counters), `b` reads the
 * index on every call (MONGODB_URI: no counters, the cache is off). A check of `a` after a write whose call `a`
 * answered before it (the filters in every test, the listing and detail where a test looks before writing) fails
 * when a write of either instance leaves a kept result in place.
 */
describe('storefront index kept current per write, on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let origins = 0;

  beforeAll(async () => {
    a = await startTestApp({ env: { SEED_DEMO: 'true' } });
    b = await startTestApp({ env: { MONGODB_URI: a.app.get(EmbeddedDatabase).tcpUri ?? '' } });
  }, 120_000);

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  /** An operator's catalogue call (`catalogueAdminServiceImpl`); @returns the answer. */
  async function admin<T = { id: string }>(t: TestApp, fn: string, args: unknown[]): Promise<T> {
    const { body } = await t.callBean(ADMIN_BEAN, fn, args, { token: t.tokenFor(Role.ADMIN) }).expect(200);
    return body as T;
  }

  /** A seller's own call (REST, "Offers and stock"), made with the demo seller's token. */
  const asSeller = (t: TestApp, username: string) =>
    `Bearer ${t.tokenFor(Role.USER, { username, id: String(demoId(`user:${username}`)) })}`;

  /** A new offer of `username` for the SKU with `quantity` units at its demo warehouse; @returns its id. */
  async function offer(t: TestApp, username: string, skuId: string, price: number, quantity: number) {
    const stock = [{ warehouseId: String(demoWarehouseId(username)), quantity }];
    const { body } = await t.http
      .post('/api/v1/catalogue/offers')
      .set('Authorization', asSeller(t, username))
      .send({ skuId, price, currency: 'EUR', stock })
      .expect(201);
    return (body as { id: string }).id;
  }

  /**
   * A product, its SKU and one offer, each made through the calls operators and sellers make; `also`: another word
   * in its name (to list several fixtures together).
   */
  async function fixture(t: TestApp, price = 500, quantity = 2, also = ''): Promise<Fixture> {
    const word = `zq${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const origin = UNUSED_ORIGINS[origins++];
    const product = await admin(t, 'createProduct', [
      { name: `Fern ${word}${also && ` ${also}`}`, published: true, countryOfOrigin: origin },
    ]);
    const sku = await admin(t, 'createSku', [{ productId: product.id, code: `F-${word}`, name: 'Plant' }]);
    const offerId = await offer(t, SELLER, sku.id, price, quantity);
    return { productId: product.id, skuId: sku.id, offerId, word, origin };
  }

  async function shown(t: TestApp, f: Fixture, word = f.word, lang = 'en'): Promise<Shown> {
    const call = (fn: string, args: unknown[]) => t.callBean(BEAN, fn, args, { lang });
    const listing = (await call('listProducts', [{ q: word }]).expect(200)).body as {
      items: { id: string; name: string; cheapestOffer: { offerId: string; price: number } }[];
    };
    const detail = await call('getProductDetail', [f.productId]);
    const origins = (await call('getCountriesOfOriginFilter', ['']).expect(200)).body as Facet[];
    // A deleted SKU is unknown (404): it narrows to nothing.
    const bySku = await call('getCountriesOfOriginFilter', [f.skuId]);
    expect([200, 404]).toContain(bySku.status);
    const skuOrigins = (bySku.status === 200 ? bySku.body : []) as Facet[];
    const named = (await call('getProductsListByRequestFilter', [word]).expect(200)).body as Facet[];
    return {
      listed: listing.items
        .filter((item) => item.id === f.productId)
        .map((item) => ({ offerId: item.cheapestOffer.offerId, price: item.cheapestOffer.price, name: item.name })),
      detail:
        detail.status === 200
          ? { status: 200, name: detail.body.name, offers: offersOf(detail.body) }
          : { status: detail.status },
      originCount: origins.find((facet) => facet.value === f.origin)?.count ?? 0,
      skuOriginCount: skuOrigins.find((facet) => facet.value === f.origin)?.count ?? 0,
      named: named.filter((facet) => facet.value === f.productId).map(({ value, count }) => ({ value, count })),
    };
  }

  /** Both instances show the same, and it is `expected`. */
  async function expectBoth(f: Fixture, expected: Partial<Shown>, word?: string, lang?: string): Promise<void> {
    for (const t of [a, b]) expect(await shown(t, f, word, lang)).toMatchObject(expected);
  }

  const listedAs = (f: Fixture, offerId: string, price: number, name = `Fern ${f.word}`): Partial<Shown> => ({
    listed: [{ offerId, price, name }],
    originCount: 1,
    skuOriginCount: 1,
    named: [{ value: f.productId, count: 1 }],
  });
  const notListed: Partial<Shown> = { listed: [], originCount: 0, skuOriginCount: 0, named: [] };

  const patchOffer = (t: TestApp, offerId: string, body: object) =>
    t.http
      .patch(`/api/v1/catalogue/offers/${offerId}`)
      .set('Authorization', asSeller(t, SELLER))
      .send(body)
      .expect(200);

  it('should show a price change made through either instance', async () => {
    const f = await fixture(a);
    await expectBoth(f, listedAs(f, f.offerId, 500));
    await patchOffer(a, f.offerId, { price: 350 });
    await expectBoth(f, {
      ...listedAs(f, f.offerId, 350),
      detail: { status: 200, offers: [{ offerId: f.offerId, price: 350, inStock: true }] },
    });
    await patchOffer(b, f.offerId, { price: 420 });
    await expectBoth(f, listedAs(f, f.offerId, 420));
  });

  /** The quantities an instance shows of the fixture's offer in a listing page and in the product's detail. */
  async function quantities(t: TestApp, f: Fixture) {
    const listing = (await t.callBean(BEAN, 'listProducts', [{ q: f.word }]).expect(200)).body as {
      items: { cheapestOffer: { quantity: number } }[];
    };
    const detail = (await t.callBean(BEAN, 'getProductDetail', [f.productId]).expect(200)).body as {
      offers: { quantity: number }[];
    };
    return {
      listed: listing.items.map((item) => item.cheapestOffer.quantity),
      detail: detail.offers.map((offer) => offer.quantity),
    };
  }

  const adjustStock = (t: TestApp, f: Fixture, delta: number) =>
    t.http
      .post(`/api/v1/catalogue/offers/${f.offerId}/stock/${String(demoWarehouseId(SELLER))}/adjust`)
      .set('Authorization', asSeller(t, SELLER))
      .send({ delta })
      .expect(200);

  // A change of stock that keeps the offer in stock leaves the listing revision alone (it changes no order, count or
  // match): the pages and details that show the offer's quantity still show the new one on the next call.
  it('should show a stock change that keeps the offer in stock on the next listing and detail call', async () => {
    const f = await fixture(a, 500, 2);
    // Each instance answers twice before the write (the second answer may come from a kept result).
    for (const t of [a, b, a, b]) expect(await quantities(t, f)).toEqual({ listed: [2], detail: [2] });
    await adjustStock(b, f, 3);
    for (const t of [a, b, a, b]) expect(await quantities(t, f)).toEqual({ listed: [5], detail: [5] });
    await adjustStock(a, f, -4);
    for (const t of [a, b]) expect(await quantities(t, f)).toEqual({ listed: [1], detail: [1] });
  });

  // A stock change that keeps the offer in stock patches the entries' offers (`quantityPatches`). An entry per
  // currency not at the version the all-currencies entry was read at (here: put back one version, with a stale name)
  // is not patched: the product is refreshed from every source, which writes it whole.
  it('should write an entry per currency whole after a stock change when it was left behind', async () => {
    const f = await fixture(a, 500, 2);
    const entries = a.app
      .get<Connection>(getConnectionToken())
      .collection<{ _id: string; version: number }>('storefront_index');
    const { version } = (await entries.findOne({ _id: f.productId }))!;
    const perCurrency = `${f.productId}|EUR`;
    await entries.updateOne({ _id: perCurrency }, { $set: { name: 'stale', version: version - 1 } });
    await adjustStock(a, f, 1);
    const [all, eur] = await Promise.all([f.productId, perCurrency].map((id) => entries.findOne({ _id: id })));
    expect(eur).toMatchObject({ name: `Fern ${f.word}`, version: all!.version, offers: [{ quantity: 3 }] });
    expect(all).toMatchObject({ offers: [{ quantity: 3 }], cheapest: { quantity: 3 } });
  });

  it('should reorder a listing page sorted by price after a price change through the other instance', async () => {
    const shared = `zs${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const f = await fixture(a, 300, 2, shared);
    const g = await fixture(a, 400, 2, shared);
    const order = async (t: TestApp) => {
      const { body } = await t.callBean(BEAN, 'listProducts', [{ q: shared, sort: 'price' }]).expect(200);
      return (body as { items: { id: string }[] }).items.map((item) => item.id);
    };
    for (const t of [a, b, a, b]) expect(await order(t)).toEqual([f.productId, g.productId]);
    await patchOffer(b, g.offerId, { price: 200 });
    for (const t of [a, b, a, b]) expect(await order(t)).toEqual([g.productId, f.productId]);
    await patchOffer(a, f.offerId, { price: 100 });
    for (const t of [a, b]) expect(await order(t)).toEqual([f.productId, g.productId]);
  });

  it('should drop a product whose stock a checkout takes to zero, and bring it back with a restock', async () => {
    const f = await fixture(a, 500, 1);
    await checkOut(a, await createBuyer(a), [{ sellerSkuId: f.offerId, quantity: 1 }]);
    await expectBoth(f, {
      ...notListed,
      detail: { status: 200, offers: [{ offerId: f.offerId, price: 500, inStock: false }] },
    });
    await b.http
      .post(`/api/v1/catalogue/offers/${f.offerId}/stock/${String(demoWarehouseId(SELLER))}/adjust`)
      .set('Authorization', asSeller(b, SELLER))
      .send({ delta: 3 })
      .expect(200);
    await expectBoth(f, listedAs(f, f.offerId, 500));
  });

  it('should leave out an offer its seller withdrew, and show it again when reactivated', async () => {
    const f = await fixture(a);
    await patchOffer(b, f.offerId, { active: false });
    await expectBoth(f, { ...notListed, detail: { status: 200, offers: [] } });
    await patchOffer(a, f.offerId, { active: true });
    await expectBoth(f, listedAs(f, f.offerId, 500));
  });

  // A price range lists a product with an in-stock offer within it, also when its cheapest one is below the range
  // (its total one count of the entries' price keys): shown with that offer, until the offer sells out.
  it('should list and count by a price range a product whose offer within it is not its cheapest', async () => {
    const f = await fixture(a, 120, 2);
    // No demo product or other fixture has an offer in this range.
    const range = { minPrice: 987_650, maxPrice: 987_660, sort: 'newest' };
    const inside = await offer(b, OTHER_SELLER, f.skuId, 987_655, 3);
    const inRange = async (t: TestApp, currency?: string) => {
      const { body } = await t.callBean(BEAN, 'listProducts', [{ ...range, currency }]).expect(200);
      const { items, total } = body as { items: { id: string; cheapestOffer: { offerId: string } }[]; total: number };
      return { rows: items.map((item) => ({ id: item.id, offerId: item.cheapestOffer.offerId })), total };
    };
    for (const t of [a, b, a, b]) {
      for (const currency of [undefined, 'EUR']) {
        expect(await inRange(t, currency)).toEqual({ rows: [{ id: f.productId, offerId: inside }], total: 1 });
      }
    }
    await b.http
      .post(`/api/v1/catalogue/offers/${inside}/stock/${String(demoWarehouseId(OTHER_SELLER))}/adjust`)
      .set('Authorization', asSeller(b, OTHER_SELLER))
      .send({ delta: -3 })
      .expect(200);
    for (const t of [a, b]) {
      for (const currency of [undefined, 'EUR']) expect(await inRange(t, currency)).toEqual({ rows: [], total: 0 });
    }
    await expectBoth(f, listedAs(f, f.offerId, 120));
  });

  it('should show a new, cheaper offer of another seller as the cheapest', async () => {
    const f = await fixture(a);
    const newId = await offer(b, OTHER_SELLER, f.skuId, 199, 4);
    await expectBoth(f, {
      listed: [{ offerId: newId, price: 199, name: `Fern ${f.word}` }],
      named: [{ value: f.productId, count: 2 }],
    });
    for (const t of [a, b]) {
      const sellers = (await t.callBean(BEAN, 'getCountriesOfSellersFilter', [f.skuId]).expect(200)).body as Facet[];
      expect(sellers.map((facet) => facet.value).sort()).toEqual(['FR', 'NL']);
    }
  });

  it('should find a renamed product by its new name only', async () => {
    const f = await fixture(a);
    const renamed = `zr${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    await admin(b, 'updateProduct', [f.productId, { name: `Maple ${renamed}` }]);
    await expectBoth(f, { listed: [], named: [], detail: { status: 200, name: `Maple ${renamed}` } });
    await expectBoth(
      f,
      { ...listedAs(f, f.offerId, 500, `Maple ${renamed}`), named: [{ value: f.productId, count: 1 }] },
      renamed,
    );
  });

  it('should answer in a translation added to the product, and find it by the translated name', async () => {
    const f = await fixture(a);
    const translated = `zt${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const translation = { lang: 'de', name: `Farn ${translated}`, description: 'Ein Farn' };
    await admin(a, 'setProductTranslation', [f.productId, translation]);
    await expectBoth(f, { detail: { status: 200, name: `Farn ${translated}` } }, f.word, 'de-CH');
    await expectBoth(f, { detail: { status: 200, name: `Fern ${f.word}` } }, f.word, 'fr');
    await expectBoth(f, { listed: [{ offerId: f.offerId, price: 500, name: `Farn ${translated}` }] }, translated, 'de');
  });

  it('should hide an unpublished product everywhere, and show it again when published', async () => {
    const f = await fixture(a);
    await admin(b, 'unpublishProduct', [f.productId]);
    await expectBoth(f, { ...notListed, detail: { status: 404 } });
    await admin(a, 'publishProduct', [f.productId]);
    await expectBoth(f, listedAs(f, f.offerId, 500));
  });

  it('should follow updateMany and deleteMany to the products they touched', async () => {
    const f = await fixture(a);
    const g = await fixture(a);
    await model<SellerSku>(b, SellerSku.name)
      .updateMany({ _id: { $in: [f.offerId, g.offerId] } }, { $set: { quantity: 0 } })
      .exec();
    await expectBoth(f, notListed);
    await expectBoth(g, notListed);
    await model<SellerSku>(a, SellerSku.name)
      .updateMany({ _id: { $in: [f.offerId, g.offerId] } }, { $set: { quantity: 5 } })
      .exec();
    await model<Sku>(a, Sku.name)
      .deleteMany({ _id: { $in: [f.skuId] } })
      .exec();
    await model<SellerSku>(b, SellerSku.name).deleteMany({ sku: f.skuId }).exec();
    await expectBoth(f, { ...notListed, detail: { status: 200, offers: [] } });
    await expectBoth(g, listedAs(g, g.offerId, 500));
    await model<Product>(a, Product.name).deleteOne({ _id: g.productId }).exec();
    await expectBoth(g, { ...notListed, detail: { status: 404 } });
  });

  it('should name and measure the attribute filters after attribute writes, on the next call of both', async () => {
    const code = `zh${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const height = await admin(a, 'createAttribute', [{ code, name: 'Zq height', type: 'VALUE', unit: 'cm' }]);
    const spare = await admin(a, 'createAttribute', [{ code: `${code}-spare`, name: 'Zq spare', type: 'VALUE' }]);
    const f = await fixture(a);
    await admin(a, 'updateProduct', [f.productId, { attributes: [{ attributeId: height.id, values: ['12'] }] }]);
    const filters = async (t: TestApp) => ({
      attributes: ((await t.callBean(BEAN, 'getDynamicFilters', ['', 'VALUE']).expect(200)).body as Facet[]).filter(
        (facet) => [height.id, spare.id].includes(facet.value),
      ),
      values: (await t.callBean(BEAN, 'getDynamicValueFilters', ['', height.id]).expect(200)).body as Facet[],
      spare: (await t.callBean(BEAN, 'getDynamicValueFilters', ['', spare.id])).status,
      // A listing by one value checks its attribute against those kept as of the revision read with its total.
      listed: (
        (await t.callBean(BEAN, 'listProducts', [{ filters: [{ attributeId: height.id, values: ['12'] }] }])).body as {
          total: number;
        }
      ).total,
      spareListing: (await t.callBean(BEAN, 'listProducts', [{ filters: [{ attributeId: spare.id, values: ['1'] }] }]))
        .status,
    });
    // Each instance answers (and keeps the attributes it read) before every write.
    for (const t of [a, b]) {
      expect(await filters(t)).toEqual({
        attributes: [{ value: height.id, label: 'Zq height', count: 1 }],
        values: [{ value: '12', label: '12 cm', count: 1 }],
        spare: 200,
        listed: 1,
        spareListing: 200,
      });
    }
    await admin(b, 'updateAttribute', [height.id, { name: 'Zq tallness', unit: 'mm' }]);
    // Removed with a raw driver call (the document storage bean), which the attribute model's hooks do not see.
    const args = [a.app.get<Connection>(getConnectionToken()).name, 'attributes', spare.id];
    await b
      .callBean('documentStorageServiceImpl', 'removeDocument', args, { token: b.tokenFor(Role.ADMIN) })
      .expect(200);
    for (const t of [a, b]) {
      expect(await filters(t)).toEqual({
        attributes: [{ value: height.id, label: 'Zq tallness', count: 1 }],
        values: [{ value: '12', label: '12 mm', count: 1 }],
        spare: 404,
        listed: 1,
        spareListing: 404,
      });
    }
  });

  it('should follow an offer removed with a raw driver call through the document storage bean', async () => {
    const f = await fixture(a);
    const args = [a.app.get<Connection>(getConnectionToken()).name, 'seller_skus', f.offerId];
    await a
      .callBean('documentStorageServiceImpl', 'removeDocument', args, { token: a.tokenFor(Role.ADMIN) })
      .expect(200);
    await expectBoth(f, { ...notListed, detail: { status: 200, offers: [] } });
  });

  it('should follow offers changed and added with raw driver calls through STOMP /request/document', async () => {
    const f = await fixture(a);
    const other = await model<Seller>(a, Seller.name).create({ name: `Raw ${f.word}`, country: 'DE' });
    const replies = '/user/topic/default/json';
    const admin = await TestStompClient.connect(b.url, { token: b.tokenFor(Role.ADMIN) });
    type Reply = { actionId: string; payload: unknown };
    const request = async (body: object, actionId: string) => {
      admin.send('/request/document', { collectionName: 'seller_skus', ...body, actionId });
      return (await admin.next<Reply>(replies, (candidate) => candidate.actionId === actionId)).payload;
    };
    try {
      await admin.subscribe(replies);
      const update = { filter: { _id: { $oid: f.offerId } }, update: { $set: { quantity: 0 } } };
      expect(await request({ requestType: 'UPDATE', ...update }, 'u')).toEqual({ matchedCount: 1, modifiedCount: 1 });
      await expectBoth(f, notListed);
      const document = {
        seller: { $oid: String(other._id) },
        sku: { $oid: f.skuId },
        product: { $oid: f.productId },
        price: 275,
        currency: 'EUR',
        quantity: 1,
      };
      expect(await request({ requestType: 'INSERT', document }, 'i')).toMatchObject({ insertedCount: 1 });
    } finally {
      await admin.disconnect();
    }
    const listed = (await shown(a, f)).listed;
    expect(listed).toEqual([{ offerId: expect.any(String), price: 275, name: `Fern ${f.word}` }]);
    await expectBoth(f, { listed, originCount: 1 });
  });
});

function offersOf(body: { offers: { offerId: string; price: number; inStock: boolean }[] }) {
  return body.offers.map(({ offerId, price, inStock }) => ({ offerId, price, inStock }));
}

import { EmbeddedMongoServer } from '@ccb/embedded-mongo';
import { getConnectionToken } from '@nestjs/mongoose';
import { MongoClient } from 'mongodb';
import { Connection, Types } from 'mongoose';
import request from 'supertest';
import { Role } from '../src/common/principal';
import { buildDemoCatalogue } from '../src/seed/demo-data';
import { demoId } from '../src/seed/demo-id';
import { OrderExpiry } from '../src/services/orders/order-expiry';
import { OrderPaidRetry } from '../src/services/orders/order-paid-retry';
import { CreditNoteRetry } from '../src/services/orders/credit-note-retry';
import { Join, joinsOf, PlannedQuery, planAll, QueryRecorder, sortOf } from './support/query-plans';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Collections that stay small by design, where a collection scan is fine:
 * - countries: the ISO 3166 dataset (249 records), searched on names localized inside the pipeline;
 * - sites: one document per site the operator configures;
 * - seed_runs: one marker per demo seed.
 */
const BOUNDED_COLLECTIONS = new Set(['countries', 'sites', 'seed_runs']);

/**
 * Bean calls that read a whole collection by design: statistics over every document, which no index can answer.
 * Admin-only, never on a shopper's path.
 */
const WHOLE_COLLECTION_STATISTICS = new Set([
  'orderServiceImpl.getCommerceItemRepository', // sums the items of every order
]);

const demo = buildDemoCatalogue();
const SEARCH = 'ecomRemainsSearchEngineServiceImpl';
const GEO = 'geoLocationServiceImpl';

/**
 * Drives the beans through the public gateway with the demo marketplace loaded, records every query the app sends
 * (driver command monitoring), explains each against the same database and fails on a collection scan over a
 * collection that can grow. Only the first `$match` of an aggregate is planned, as MongoDB does; its `$lookup`
 * stages are checked apart: each must join on a field that leads an index of the foreign collection (`_id` or other).
 */
describe('query plans of the beans', () => {
  let server: EmbeddedMongoServer;
  let t: TestApp;
  let recorder: QueryRecorder;
  let planned: PlannedQuery[];
  let joins: Join[];
  let admin: string;
  let alice: string;
  let sellerNl: string;

  const call = async (token: string | undefined, beanId: string, fn: string, args: unknown[]) => {
    const response = await recorder.during(`${beanId}.${fn}`, () => t.callBean(beanId, fn, args, { token }));
    if (response.status !== 200) throw new Error(`${beanId}.${fn}: ${response.status} ${response.text}`);
    return response.body as unknown;
  };

  beforeAll(async () => {
    server = await EmbeddedMongoServer.start({ port: 0 });
    const uri = `${server.uri.replace(/\/$/, '')}/plans?monitorCommands=true`;
    t = await startTestApp({ env: { MONGODB_URI: uri, SEED_DEMO: 'true', BEAN_RATE_LIMIT: '100000' } });
    recorder = new QueryRecorder(t.app.get<Connection>(getConnectionToken()).getClient());
    admin = t.tokenFor(Role.ADMIN);
    alice = t.tokenFor(Role.USER, { username: 'alice', id: String(demoId('user:alice')) });
    sellerNl = t.tokenFor(Role.USER, { username: 'seller.nl', id: String(demoId('user:seller.nl')) });
    await driveStorefront();
    await driveAccounts();
    await driveCartAndOrders();
    await driveContent();
    await driveJobsAndAnalytics();
    await driveSellerOffers();
    await driveBackOffice();
    const client = new MongoClient(server.uri);
    try {
      planned = await planAll(client.db('plans'), recorder.queries);
      joins = await joinsOf(client.db('plans'), recorder.queries);
    } finally {
      await client.close();
    }
    printPlans(planned, joins);
  }, 360_000);

  afterAll(async () => {
    await t?.stop();
    await server?.stop();
  });

  async function driveStorefront(): Promise<void> {
    const sku = String(demo.sellerSkus.find((offer) => offer.quantity > 0)!.sku);
    const attribute = (code: string) => String(demo.attributes.find((a) => a.code === code)!._id);
    for (const skuId of ['', sku]) {
      await call(undefined, SEARCH, 'getCountriesOfOriginFilter', [skuId]);
      await call(undefined, SEARCH, 'getCountriesOfSellersFilter', [skuId]);
      await call(undefined, SEARCH, 'getGeneticTypeFilter', [skuId]);
      await call(undefined, SEARCH, 'getDynamicFilters', [skuId, 'OPTION']);
      await call(undefined, SEARCH, 'getDynamicOptionFilters', [skuId, attribute('light')]);
      await call(undefined, SEARCH, 'getDynamicValueFilters', [skuId, attribute('height')]);
    }
    await call(undefined, SEARCH, 'getProductsListFilter', []);
    // A term of three characters or more is looked up by its trigrams, a shorter one on the names in order.
    for (const term of ['ros', 'ro']) await call(undefined, SEARCH, 'getProductsListByRequestFilter', [term]);
    await call(sellerNl, SEARCH, 'getLoggedSellerSkusFilter', []);
    await driveStorefrontListing(attribute);
    const seller = String(demo.sellers[0]._id);
    await call(undefined, GEO, 'getCountryByCode', ['NL']);
    await call(undefined, GEO, 'searchCountriesPaged', ['{"searchTerm":"land","limit":5}']);
    await call(undefined, GEO, 'getCountryNameBySellerId', [seller]);
    await call(undefined, GEO, 'getSellersByCountryCode', ['NL']);
    await call(undefined, GEO, 'getShippingAddresses', [seller]);
  }

  /** Listing and detail, each query shape once: text search, filters, price range, every sort. */
  async function driveStorefrontListing(attribute: (code: string) => string): Promise<void> {
    const filters = [
      { attributeId: attribute('light'), values: ['Shade'] },
      { attributeId: attribute('form'), values: ['Seeds'] },
    ];
    await call(undefined, SEARCH, 'listProducts', [{}]);
    await call(undefined, SEARCH, 'listProducts', [{ q: 'ficus', sort: 'price' }]);
    await call(undefined, SEARCH, 'listProducts', [{ filters, categories: ['Houseplants'], sort: '-name' }]);
    await call(undefined, SEARCH, 'listProducts', [{ filters: filters.slice(0, 1), sort: '-price' }]);
    await call(undefined, SEARCH, 'listProducts', [
      { filters: filters.slice(1), categories: ['Seeds'], sort: 'price' },
    ]);
    await call(undefined, SEARCH, 'listProducts', [{ minPrice: 500, maxPrice: 2000, currency: 'EUR', sort: 'newest' }]);
    await call(undefined, SEARCH, 'listProducts', [{ minPrice: 500, maxPrice: 2000, sort: 'price' }]);
    await call(undefined, SEARCH, 'listProducts', [{ minPrice: 500, currency: 'EUR', sort: 'name' }]);
    await call(undefined, SEARCH, 'listProducts', [{ q: 'monsterra palm' }]);
    for (const sort of ['-price', 'name', '-name', 'newest']) {
      await call(undefined, SEARCH, 'listProducts', [{ q: 'ficus', sort, currency: 'EUR', page: 1, size: 1 }]);
    }
    // One word's relevance: its count, then (100 matches or fewer in the demo) the capped ranking's reads.
    await call(undefined, SEARCH, 'listProducts', [{ q: 'ficus' }]);
    await call(undefined, SEARCH, 'listProducts', [{ q: 'a', page: 5, size: 20 }]);
    await call(undefined, SEARCH, 'listProducts', [{ q: 'ficus', categories: ['Houseplants'], sort: 'price' }]);
    await call(undefined, SEARCH, 'listProducts', [{ q: 'ficus', filters: filters.slice(0, 1), sort: 'price' }]);
    await call(undefined, SEARCH, 'listProducts', [{ currency: 'EUR', sort: '-price' }]);
    await call(undefined, SEARCH, 'listProducts', [{ sort: 'newest', page: 1, size: 5 }]);
    await call(undefined, SEARCH, 'listProducts', [{ sort: '-name', page: 1, size: 5 }]);
    await call(undefined, SEARCH, 'suggest', ['acer pal']);
    await call(undefined, SEARCH, 'getProductDetail', [String(demo.products[0]._id)]);
  }

  async function driveAccounts(): Promise<void> {
    const search = '{"searchTerm":"a","query":{"type":"company"},"limit":5}';
    await call(undefined, 'profileSearchServiceImpl', 'searchProfiles', [search]);
    await call(undefined, 'profileSearchServiceImpl', 'searchProfilesPaged', [search]);
    await call(alice, GEO, 'searchAddresses', ['', '0', '10']);
    await call(admin, 'profileSearchServiceImpl', 'getRepository', []);
    await call(admin, 'tokenServiceImpl', 'getVerificationToken', ['no-such-token']);
    await call(alice, 'accountingManagerServiceImpl', 'updateContact', []);
    await call(admin, 'cardConnectServiceMock', 'checkConnectAccountStatus', []);
  }

  async function driveCartAndOrders(): Promise<void> {
    const offer = demo.sellerSkus.find((o) => o.quantity > 1)!;
    await call(alice, 'shoppingCartServiceImpl', 'canAddItem', [String(offer._id)]);
    const cart = (await call(alice, 'shoppingCartServiceImpl', 'addCommerceItem', [String(offer._id)])) as {
      sellers: { items: { id: string }[] }[];
    };
    await call(alice, 'shoppingCartServiceImpl', 'increaseQuantity', [cart.sellers[0].items[0].id]);
    const address = { street: 'Hauptstraße', houseNumber: '1', city: 'Köln', postalCode: '50667', country: 'DE' };
    const home = (await call(alice, GEO, 'createAddress', [address])) as { id: string };
    await call(alice, 'shoppingCartServiceImpl', 'getCartDTO', []);
    const [order] = (await call(alice, 'orderServiceImpl', 'orderCheckout', [])) as { id: string }[];
    await call(alice, 'shoppingCartServiceImpl', 'addCommerceItem', [String(offer._id)]);
    const [toHome] = (await call(alice, 'orderServiceImpl', 'orderCheckoutTo', [{ addressId: home.id }])) as {
      id: string;
    }[];
    await call(alice, 'orderServiceImpl', 'getOrdersFromLoggedUser', []);
    await call(alice, 'orderServiceImpl', 'getOrder', [order.id]);
    await call(alice, 'orderServiceImpl', 'getOrdersFromLoggedUserByIds', [[order.id]]);
    await call(admin, 'orderServiceImpl', 'getOrdersPaged', ['{"query":{"status":"new"},"limit":10}']);
    const ofAlice = { query: { 'embeddedBuyer.userId': String(demoId('user:alice')) }, limit: 10 };
    await call(admin, 'orderServiceImpl', 'getOrders', [JSON.stringify(ofAlice)]);
    await driveInvoices(toHome.id); // paid before the sweep below cancels every unpaid order
    await driveSellerDesk(offer.seller, toHome.id);
    await call(alice, 'orderServiceImpl', 'cancelOrder', [order.id]);
    // The expiry sweep of unpaid orders, as every instance runs it in the background (all of them due).
    await recorder.during('orderExpiry.sweep', () => t.app.get(OrderExpiry).sweep(new Date(Date.now() + 3_600_000)));
    // The retry of paid orders' invoices, and the reconciliation of pending payments and refunds.
    const later = new Date(Date.now() + 3_600_000);
    await recorder.during('orderPaidRetry.sweep', () => t.app.get(OrderPaidRetry).sweep(later));
    await recorder.during('creditNoteRetry.sweep', () => t.app.get(CreditNoteRetry).sweep(later));
    await call(admin, 'orderServiceImpl', 'handleNotify', []);
    await call(admin, 'orderServiceImpl', 'getCommerceItemRepository', []);
  }

  /** Paying issues the invoice (register and GridFS); the buyer lists and downloads it over REST. */
  async function driveInvoices(orderId: string): Promise<void> {
    await call(alice, 'orderServiceImpl', 'digitalOrderCheckout', [{ orderId, paymentMethodId: 'pm_card_visa' }]);
    await call(alice, 'orderServiceImpl', 'pay', [orderId]);
    const get = (path: string) => t.http.get(path).set('Authorization', `Bearer ${alice}`).expect(200);
    const { body: mine } = await recorder.during('invoices.mine', () => get('/api/v1/invoices/mine'));
    await recorder.during('invoices.pdf', () => get(`/api/v1/invoices/${mine.content[0].id}/pdf`));
  }

  /** The seller's order desk (issue 24) and an order's documents, as the order's seller sees them. */
  async function driveSellerDesk(sellerId: Types.ObjectId, orderId: string): Promise<void> {
    const { username } = demo.sellers.find((seller) => seller._id.equals(sellerId))!;
    const token = t.tokenFor(Role.USER, { username, id: String(demoId(`user:${username}`)) });
    const filters = { status: ['PAID'], from: '2020-01-01T00:00:00Z', size: 10 };
    await call(token, 'orderServiceImpl', 'getSellerOrdersPaged', [filters]);
    await call(token, 'orderServiceImpl', 'getSellerOrder', [orderId]);
    const documents = () => t.http.get(`/api/v1/invoices/orders/${orderId}`).set('Authorization', `Bearer ${token}`);
    await recorder.during('invoices.ofOrder', () => documents().expect(200));
  }

  async function driveContent(): Promise<void> {
    const page = { pageUrl: 'about', published: true };
    const pageId = await call(admin, 'pageManagementServiceImpl', 'createPage', [page]);
    await call(admin, 'pageManagementServiceImpl', 'updatePage', [{ id: pageId, pageUrl: 'about', content: 'Hi' }]);
    await call(admin, 'pageManagementServiceImpl', 'publishToUrl', [{ pageName: 'about' }]);
    await call(admin, 'routerServiceImpl', 'routeAsSinglePageApplication', ['default', '/about']);
    await call(admin, 'routerServiceImpl', 'routeAsSinglePageApplication', ['default', '/missing']);
    const blog = { name: 'Garden blog', type: 'blog', published: true, tags: ['roses'] };
    await call(admin, 'contentContainerServiceImpl', 'createContainer', [blog]);
    await call(admin, 'contentContainerServiceImpl', 'searchContainerResultsPaged', ['{"searchTerm":"garden"}']);
    await call(undefined, 'blogViewerServiceImpl', 'getArticles', ['rose']);
    await call(admin, 'documentStorageServiceImpl', 'getCollectionPage', ['plans', 'seller_skus', 2, 50]);
  }

  async function driveJobsAndAnalytics(): Promise<void> {
    const job = (await call(admin, 'jobsManagementServiceImpl', 'startJob', ['import', 10])) as { id: string };
    await call(admin, 'jobsManagementServiceImpl', 'incrementJob', [job.id, 1]);
    await call(admin, 'jobsManagementServiceImpl', 'searchJobs', [{ query: { status: 'IN_PROGRESS' } }]);
    await call(admin, 'jobsManagementServiceImpl', 'toDone', [job.id]);
    const activity = { query: { customerId: String(demoId('user:alice')) }, limit: 5 };
    await call(admin, 'customerAnalyticsServiceImpl', 'getCustomerActivity', [activity]);
    await call(admin, 'customerAnalyticsServiceImpl', 'getRegisteredCustomersChart', []);
    await call(admin, 'customerAnalyticsServiceImpl', 'getRegisteredCompaniesByCountry', []);
    await call(admin, 'customerAnalyticsServiceImpl', 'getRegisteredCompaniesByType', []);
  }

  /** The seller self-service REST calls (recorded under their route). */
  async function driveSellerOffers(): Promise<void> {
    const rest = async (name: string, request: () => request.Test) => {
      const response = await recorder.during(name, () => request().set('Authorization', `Bearer ${sellerNl}`));
      if (response.status >= 300) throw new Error(`${name}: ${response.status} ${response.text}`);
      return response.body as { items: { id: string }[] };
    };
    const offers = '/api/v1/catalogue/offers';
    const { items } = await rest('GET sellers/me/offers', () => t.http.get('/api/v1/catalogue/sellers/me/offers'));
    const [offer] = items;
    const warehouse = String(demoId('address:seller.nl'));
    await rest('PATCH offers/:id', () => t.http.patch(`${offers}/${offer.id}`).send({ price: 999 }));
    await rest('PUT offers/:id/stock', () =>
      t.http.put(`${offers}/${offer.id}/stock/${warehouse}`).send({ quantity: 9 }),
    );
    await rest('POST offers/:id/stock/adjust', () =>
      t.http.post(`${offers}/${offer.id}/stock/${warehouse}/adjust`).send({ delta: -1 }),
    );
  }

  /** User management and seller onboarding; Alice becomes a seller last, so that nothing above sees her as one. */
  async function driveBackOffice(): Promise<void> {
    const users = 'userManagementServiceImpl';
    const onboarding = 'sellerOnboardingServiceImpl';
    await call(admin, users, 'listUsers', [{}]);
    await call(admin, users, 'listUsers', [{ role: 'USER', size: 5 }]);
    await call(admin, users, 'listUsers', [{ search: 'seller' }]);
    await call(admin, users, 'listUsers', [{ disabled: true }]);
    await call(admin, users, 'getUser', [String(demoId('user:alice'))]);
    await call(alice, onboarding, 'getMySellerApplications', []);
    const company = {
      companyName: 'Alice Plants',
      street: 'Kade 2',
      postalCode: '2311AA',
      city: 'Leiden',
      country: 'NL',
      vatId: 'NL123456789B01',
    };
    const applied = (await call(alice, onboarding, 'applyAsSeller', [company])) as { id: string };
    await call(admin, onboarding, 'listSellerApplications', [{ status: 'PENDING' }]);
    await call(admin, onboarding, 'listSellerApplications', [{}]);
    await call(admin, onboarding, 'approveSellerApplication', [applied.id]);
    await call(alice, onboarding, 'getMyCompanyProfile', []);
    await call(alice, onboarding, 'updateMyCompanyProfile', [company]);
    await call(alice, 'cardConnectServiceMock', 'checkMySellerAccountStatus', []);
  }

  it('should have recorded the queries of every bean it drove', () => {
    const callers = new Set(planned.map((query) => query.caller.split('.')[0]));
    const beans = [SEARCH, GEO, 'shoppingCartServiceImpl', 'orderServiceImpl', 'routerServiceImpl', 'invoices'];
    for (const bean of [...beans, 'userManagementServiceImpl', 'sellerOnboardingServiceImpl']) {
      expect(callers).toContain(bean);
    }
    expect(planned.some((query) => query.plan.includes('IXSCAN'))).toBe(true);
  });

  it('should scan no collection that can grow', () => {
    const scans = planned.filter(
      (query) =>
        query.collectionScan &&
        !readsOneDocument(query) &&
        !BOUNDED_COLLECTIONS.has(query.collection) &&
        !WHOLE_COLLECTION_STATISTICS.has(query.caller),
    );
    expect(scans.map((query) => `${query.caller} ${query.collection} ${JSON.stringify(query.command)}`)).toEqual([]);
  });

  it('should read text searches and attribute filters of listings through their own indexes', () => {
    const listingReads = planned.filter(
      (query) => query.caller === `${SEARCH}.listProducts` && query.collection === 'storefront_index',
    );
    // By the query's own filter: a page's aggregate also holds the counts appended to it (recorded apart).
    const reading = (field: string) => listingReads.filter((query) => JSON.stringify(ownFilter(query)).includes(field));
    // A scan of a whole `listing_*` range would also be no collection scan, but reads every listed entry of a scope.
    const searches = reading('"searchKeys"');
    expect(searches.length).toBeGreaterThan(0);
    expect(searches.filter((query) => !/(IXSCAN|COUNT_SCAN) search_/.test(query.plan))).toEqual([]);
    // The candidates of two conditions, and the count of one value with categories (no kept counter for that).
    const filtered = reading('"attributeKeys"').filter((query) => !searches.includes(query));
    expect(filtered.map((query) => query.plan)).toEqual([
      expect.stringContaining('listing_attribute'),
      expect.stringContaining('listing_attribute'),
    ]);
    // One attribute value sorted by price: a range of the kept prices, stopping after the page, in both directions.
    expect(reading('"keyPrices"').map((query) => query.plan)).toEqual([
      expect.stringMatching(/LIMIT.*listing_key_price/),
      expect.stringMatching(/LIMIT.*listing_key_price/),
    ]);
  });

  it('should count a price range from the keys of its price keys, no entry read', () => {
    const counts = planned.filter(
      (query) => query.caller === `${SEARCH}.listProducts` && query.command.count === 'storefront_index',
    );
    const ofPrice = counts.filter((query) => /"(price|priceKeys|offers)"/.test(JSON.stringify(query.command)));
    // Both bounds: one count of the entries having one of the range's price keys (each entry once), no FETCH.
    // `minPrice` alone: the cheapest within from `listing_price`'s keys, and the cheaper ones read through it.
    expect(ofPrice.map((query) => query.plan)).toEqual([
      'COUNT > IXSCAN listing_price_keys',
      'COUNT > COUNT_SCAN listing_price',
      expect.stringMatching(/^COUNT > FETCH > IXSCAN listing_price$/),
    ]);
    // Whether the scope's entries keep price keys: looked up once per scope (EUR, all currencies), one entry at most.
    const lookups = planned.filter(
      (query) => query.caller === `${SEARCH}.listProducts` && JSON.stringify(query.command).includes('"$exists"'),
    );
    const lookup = expect.stringMatching(/LIMIT > FETCH > IXSCAN listing_price_keys$/);
    expect(lookups.map((query) => query.plan)).toEqual([lookup, lookup]);
    // The candidates of a range sorted by price: the entries having one of its price keys.
    const candidates = planned.filter(
      (query) =>
        query.caller === `${SEARCH}.listProducts` &&
        query.command.find &&
        /"priceKeys"/.test(JSON.stringify(query.command)),
    );
    expect(candidates.map((query) => query.plan)).toContainEqual(expect.stringContaining('IXSCAN listing_price_keys'));
  });

  it('should read the products lists in name order from an index, stopping after the list', () => {
    const listReads = planned.filter(
      (query) => query.caller.startsWith(`${SEARCH}.getProductsList`) && query.collection === 'storefront_index',
    );
    // A term's trigram is one value of the multikey `nameGrams`: its entries come in name order, no SORT stage.
    const plans = listReads.map((query) => query.plan);
    expect(plans).toContain('PROJECTION_DEFAULT > LIMIT > FETCH > IXSCAN name_grams_by_name');
    expect(plans.filter((plan) => !/^PROJECTION_DEFAULT > LIMIT > FETCH > IXSCAN /.test(plan))).toEqual([]);
  });

  it('should read the counters of a filter and the attributes of a type through their indexes', () => {
    const filterReads = planned.filter((query) => query.caller === `${SEARCH}.getDynamicFilters`);
    const plansOf = (collection: string) =>
      filterReads.filter((query) => query.collection === collection).map((query) => query.plan);
    expect(plansOf('storefront_facets')).toContain('FETCH > IXSCAN facet_count');
    expect(plansOf('attributes')).toEqual(plansOf('attributes').map(() => 'FETCH > IXSCAN type_1'));
    expect(plansOf('attributes').length).toBeGreaterThan(0);
  });

  it('should page text searches in a search index order, stopping after the page, and count keys alone', () => {
    const searches = planned.filter(
      (query) =>
        [`${SEARCH}.listProducts`, `${SEARCH}.suggest`].includes(query.caller) &&
        JSON.stringify(query.command).includes('"searchKeys"') &&
        !JSON.stringify(query.command).includes('"attributeKeys"'),
    );
    const pages = searches.filter((query) => sortOrPipelineSort(query) !== undefined);
    const counts = searches.filter((query) => query.command.count !== undefined);
    // One page shape per sort (price, -price, name, -name, newest), and the type-ahead's name order.
    expect(pages.length).toBeGreaterThanOrEqual(6);
    for (const { plan } of pages) {
      // No blocking SORT: the merged scans of the search keys (one, for the type-ahead) give the order.
      expect(plan).toMatch(/^(PROJECTION_\w+ > )?LIMIT > (SKIP > )?FETCH > (SORT_MERGE > )?IXSCAN search_/);
    }
    expect(counts.map((query) => query.plan)).toContainEqual(expect.stringMatching(/^COUNT > IXSCAN search_/));
  });

  it('should read the descending sorts from the ascending indexes backwards', () => {
    const descending = planned.filter(
      (query) =>
        query.caller === `${SEARCH}.listProducts` &&
        query.collection === 'storefront_index' &&
        ['price', 'name'].some((field) => sortOrPipelineSort(query)?.[field] === -1),
    );
    const plans = descending.map((query) => query.plan);
    // `-price` and `-name` of a search (merged scans of its keys) and of a plain listing: no SORT, no `*_desc` index.
    expect(plans).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/SORT_MERGE > IXSCAN search_price backward/),
        expect.stringMatching(/SORT_MERGE > IXSCAN search_name backward/),
        expect.stringMatching(/FETCH > IXSCAN listing_price backward$/),
        expect.stringMatching(/FETCH > IXSCAN listing_name backward$/),
      ]),
    );
    for (const plan of plans) {
      expect(plan).not.toMatch(/\bSORT\b|_desc/);
      expect(plan).not.toMatch(/IXSCAN \w+( >|$)/);
    }
  });

  it('should join only on indexed foreign fields', () => {
    expect(joins.length).toBeGreaterThan(0);
    const unindexed = joins.filter((join) => join.indexes.length === 0 && !BOUNDED_COLLECTIONS.has(join.from));
    expect(unindexed.map((join) => `${join.caller} ${join.from}.${join.foreignField}`)).toEqual([]);
  });
});

/** A find's sort, or an aggregate's first `$sort`. */
/** What a query selects by: a find's filter, a count's query, an aggregate's first `$match`. */
function ownFilter({ command }: PlannedQuery): unknown {
  const [first] = (command.pipeline ?? []) as Record<string, unknown>[];
  return command.filter ?? command.query ?? first?.$match;
}

function sortOrPipelineSort({ command }: PlannedQuery): Record<string, unknown> | undefined {
  const stages = (command.pipeline ?? []) as Record<string, unknown>[];
  const sorting = stages.find((stage) => stage.$sort !== undefined);
  return sortOf(command) ?? (sorting?.$sort as Record<string, unknown> | undefined);
}

/**
 * A find with no filter and a limit of 1 reads one document whatever the collection's size: the driver's own
 * emptiness check before a GridFS bucket's first upload (it then creates the bucket's indexes).
 */
function readsOneDocument({ command }: PlannedQuery): boolean {
  const filter = command.filter as object | undefined;
  const unfiltered = !filter || Object.keys(filter).length === 0;
  return command.find !== undefined && command.limit === 1 && command.sort === undefined && unfiltered;
}

function printPlans(planned: PlannedQuery[], joins: Join[]): void {
  const rows = planned.map((query) => {
    const name = Object.keys(query.command)[0];
    return `${query.caller.padEnd(62)} ${`${query.collection}.${name}`.padEnd(34)} ${query.plan}`;
  });
  const joinRows = joins.map((join) => {
    const served = join.indexes.join(', ') || 'NO INDEX';
    return `${join.caller.padEnd(62)} ${`${join.from}.${join.foreignField}`.padEnd(34)} ${served}`;
  });
  process.stdout.write(`Query plans (bean call, collection.command, winning plan):\n${rows.join('\n')}\n`);
  process.stdout.write(`$lookup joins (bean call, foreign collection.field, indexes):\n${joinRows.join('\n')}\n`);
}

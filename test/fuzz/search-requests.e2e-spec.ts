import fc from 'fast-check';
import { Role } from '../../src/common/principal';
import { checkOut, createBuyer } from '../orders/support/order-calls';
import { createOffer } from '../orders/support/order-fixtures';
import { TestApp } from '../support/test-app';
import { anyJson, anyKey, anyNumber, anyText, deeplyNested } from './support/arbitraries';
import { assertCleanAnswer, assertHealthy, beanCall, FuzzClient, startFuzzApp } from './support/fuzz-http';
import { checkProperty, fuzzRuns, fuzzTimeout } from './support/fuzz-property';

/**
 * Search requests (DESIGN §6) under random filters, sorts and paging, over the demo catalogue and real orders:
 * a 200 or a DESIGN §3 4xx, never a 5xx, and the app still healthy afterwards.
 */
const RUNS = fuzzRuns(150);
const TIMEOUT = fuzzTimeout(RUNS, 60);

/** Beans taking a search request as their one `String` argument (JSON text), with the role that may call them. */
const SEARCHES: { beanId: string; functionName: string; role: Role }[] = [
  ...['getPaginationFilter', 'searchProfiles', 'searchProfilesPaged'].map((functionName) => ({
    beanId: 'profileSearchServiceImpl',
    functionName,
    role: Role.GUEST,
  })),
  ...['getPaginationFilter', 'getOrders', 'getOrdersPaged'].map((functionName) => ({
    beanId: 'orderServiceImpl',
    functionName,
    role: Role.ADMIN,
  })),
  ...['getPaginationFilter', 'searchCountries', 'searchCountriesPaged'].map((functionName) => ({
    beanId: 'geoLocationServiceImpl',
    functionName,
    role: Role.GUEST,
  })),
  ...['getContainerPaginationFilter', 'searchContainerResultsPaged', 'searchContainersResults'].map((functionName) => ({
    beanId: 'contentContainerServiceImpl',
    functionName,
    role: Role.ADMIN,
  })),
];

/** Field names the searched entities have, so that filters and sorts often pass the field checks. */
const FIELDS = [
  'name',
  'status',
  'username',
  'firstName',
  'lastName',
  'country',
  'code',
  'type',
  'createdAt',
  'total',
  'embeddedBuyer.userId',
  'commerceItems.quantity',
  '_id',
  'id',
  'title',
  'a.b',
  'a..b',
  '$where',
  '.x',
  'name.$',
];

const field = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: anyKey });
const value = fc.oneof(anyText, anyNumber, fc.boolean(), fc.constant(null), anyJson);
const paging = fc.oneof(anyNumber, anyNumber.map(String), anyJson);

/** A search request: mostly well typed with edge values, sometimes anything at all. */
const searchRequest = fc.record(
  {
    type: fc.oneof(anyText, anyJson),
    searchTerm: fc.oneof({ weight: 4, arbitrary: anyText }, { weight: 1, arbitrary: anyJson }),
    query: fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .array(fc.tuple(field, value), { maxLength: 4 })
          .map((entries) => Object.assign(Object.create(null) as object, Object.fromEntries(entries))),
      },
      { weight: 1, arbitrary: anyJson },
    ),
    ignoreRegexWrap: fc.oneof(fc.array(field, { maxLength: 3 }), anyJson),
    offset: paging,
    limit: paging,
    visiblePages: paging,
    page: paging,
    sortName: fc.oneof({ weight: 3, arbitrary: field }, { weight: 1, arbitrary: anyJson }),
    sortDirection: fc.oneof(fc.constantFrom('ASC', 'DESC', 'asc', 'desc', 'up'), anyJson),
  },
  { requiredKeys: [] },
);

/** The `String` argument: the request's JSON text mostly, else text that is not one, or not a string at all. */
const requestArgument = fc.oneof(
  { weight: 6, arbitrary: searchRequest.map((request) => JSON.stringify(request)) },
  { weight: 1, arbitrary: searchRequest },
  { weight: 1, arbitrary: anyText },
  { weight: 1, arbitrary: anyJson.map((json) => JSON.stringify(json) ?? '') },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
      .map(deepQuery),
  },
);

/** A request whose `query` value is nested `depth` levels deep. */
function deepQuery([depth, kind]: [number, 'array' | 'object']): string {
  return `{"query":{"name":${deeplyNested(depth, kind)}}}`;
}

describe('Fuzzing search requests', () => {
  let t: TestApp;
  let client: FuzzClient;
  const tokens: Partial<Record<Role, string>> = {};

  beforeAll(async () => {
    t = await startFuzzApp({ SEED_DEMO: 'true' });
    client = new FuzzClient(t.url);
    tokens[Role.ADMIN] = t.tokenFor(Role.ADMIN);
    const buyer = await createBuyer(t);
    const offer = await createOffer(t);
    await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 2 }]);
  });
  afterAll(async () => {
    client.close();
    await t.stop();
  });

  it(
    'should answer any search request with a 200 or a DESIGN §3 4xx',
    async () => {
      await checkProperty(
        'search requests: filters, sorts and paging',
        fc.asyncProperty(
          fc.constantFrom(...SEARCHES),
          requestArgument,
          async ({ beanId, functionName, role }, argument) => {
            const response = await client.send(
              beanCall({ beanId, functionName, args: [argument] }, { token: tokens[role] }),
            );
            assertCleanAnswer(response, (status) => status === 200);
          },
        ),
        RUNS,
        [
          // paging beyond what a number holds exactly: skip = page × limit
          [SEARCHES[2], JSON.stringify({ page: 1e300, limit: 200 })],
          [SEARCHES[5], JSON.stringify({ offset: 2 ** 53 + 2, sortName: 'total', sortDirection: 'DESC' })],
          // found by fuzzing: the operator check walked the request recursively and overflowed the stack (500)
          [SEARCHES[4], deepQuery([5000, 'array'])],
          // found by `npm run fuzz`: the embedded database's plan cache shaped nested arrays in exponential length (500)
          [SEARCHES.find((s) => s.functionName === 'searchContainersResults')!, deepQuery([27, 'array'])],
        ],
      );
      await assertHealthy(client);
    },
    TIMEOUT,
  );

  const skuId = fc.oneof(fc.constant(''), anyText, anyJson);
  const productSearch = fc.oneof(
    fc.tuple(
      fc.constantFrom(
        'getCountriesOfOriginFilter',
        'getCountriesOfSellersFilter',
        'getGeneticTypeFilter',
        'getProductsListByRequestFilter',
      ),
      fc.tuple(skuId),
    ),
    fc.tuple(
      fc.constantFrom('getDynamicFilters', 'getDynamicOptionFilters', 'getDynamicValueFilters'),
      fc.tuple(skuId, fc.oneof(fc.constantFrom('OPTION', 'VALUE'), anyText, anyJson)),
    ),
  );

  it(
    'should answer any product search filter arguments with a 200 or a DESIGN §3 4xx',
    async () => {
      await checkProperty(
        'search requests: product search filters',
        fc.asyncProperty(productSearch, fc.constantFrom('en', 'de', 'fr'), async ([functionName, args], lang) => {
          const call = beanCall(
            { beanId: 'ecomRemainsSearchEngineServiceImpl', functionName, args },
            { headers: { 'Lang-Context': lang } },
          );
          assertCleanAnswer(await client.send(call), (status) => status === 200);
        }),
        RUNS,
      );
      await assertHealthy(client);
    },
    TIMEOUT,
  );
});

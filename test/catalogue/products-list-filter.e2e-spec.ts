import { getConnectionToken } from '@nestjs/mongoose';
import { Connection, mongo } from 'mongoose';
import { DemoSeeder } from '../../src/seed/demo-seeder';
import { MAX_LISTED_PRODUCTS } from '../../src/services/product-search/storefront-facets';
import { startTestApp, TestApp } from '../support/test-app';
import { asCounts } from './support/demo-facets';
import { countsOf, listedProductsNamed } from './support/products-list';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';
type Facet = { value: string; label: string; count: number };

/**
 * The products list filters on a catalogue listing more products than they answer (the demo twice: 90 listed, the
 * copies named "<plant> 2"): the first `MAX_LISTED_PRODUCTS` by name, each with its in-stock offers, compared with a
 * recomputation from the source collections; terms of three characters or more go through the name trigrams,
 * shorter ones through the names read in order.
 */
describe('products list filters beyond their bound', () => {
  let t: TestApp;
  let db: mongo.Db;
  const facets = async (fn: string, args: unknown[]) => (await t.callBean(BEAN, fn, args).expect(200)).body as Facet[];

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'false' } });
    await t.app.get(DemoSeeder).seed(2);
    db = t.app.get<Connection>(getConnectionToken()).db!;
  }, 120_000);

  afterAll(() => t.stop());

  it('should answer the first products by name with their in-stock offers', async () => {
    const listed = await listedProductsNamed(db, '');
    expect(listed.length).toBeGreaterThan(MAX_LISTED_PRODUCTS);
    const answer = await facets('getProductsListFilter', []);
    expect(answer).toHaveLength(MAX_LISTED_PRODUCTS);
    expect(asCounts(answer)).toEqual(countsOf(listed.slice(0, MAX_LISTED_PRODUCTS)));
    expect(answer.map((facet) => facet.label).sort()).toEqual(listed.slice(0, MAX_LISTED_PRODUCTS).map((r) => r.name));
  });

  it.each([
    ['ros', 'trigrams, fewer matches than the bound', false],
    ['ROSA', 'trigrams, any case', false],
    ['us 2', 'trigrams across words', false],
    ['A', 'a scan, more matches than the bound', true],
    [' 2', 'a scan of a trimmed term', false],
    ['zq', 'a scan finding nothing', false],
    ['xyz', 'trigrams finding nothing', false],
  ])('should search names for %j (%s) as the source collections say', async (term, _how, beyondBound) => {
    const matching = await listedProductsNamed(db, term);
    expect(matching.length > MAX_LISTED_PRODUCTS).toBe(beyondBound);
    const answer = await facets('getProductsListByRequestFilter', [term]);
    expect(asCounts(answer)).toEqual(countsOf(matching.slice(0, MAX_LISTED_PRODUCTS)));
  });
});

import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Role } from '../../src/common/principal';
import { SellerSku } from '../../src/services/catalogue/seller-sku.schema';
import { DEMO_PASSWORD } from '../../src/seed/demo-seeder';
import { startTestApp, TestApp } from '../support/test-app';
import {
  asCounts,
  attributeId,
  attributeValuesOf,
  countProducts,
  demo,
  inStockOffers,
  productOf,
  sellerOf,
} from './support/demo-facets';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';
const MISSING_ID = '0123456789abcdef01234567';
type Facet = { value: string; label: string; count: number };

describe('ecomRemainsSearchEngineServiceImpl', () => {
  let t: TestApp;
  const call = (fn: string, args: unknown[], options: { token?: string; lang?: string } = {}) =>
    t.callBean(BEAN, fn, args, options);
  const facets = async (fn: string, args: unknown[], lang?: string): Promise<Facet[]> =>
    (await call(fn, args, { lang }).expect(200)).body;

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
  });

  afterAll(() => t.stop());

  /** A SKU offered in stock by two sellers, to check the SKU scope. */
  const sharedSku = () => {
    const skuIds = inStockOffers().map((offer) => String(offer.sku));
    return skuIds.find((id) => skuIds.indexOf(id) !== skuIds.lastIndexOf(id))!;
  };

  describe('country and genetic type filters', () => {
    it('should count published products with in-stock offers per country of origin, localized', async () => {
      const expected = countProducts(inStockOffers(), (offer) => [productOf(offer).countryOfOrigin]);
      const result = await facets('getCountriesOfOriginFilter', [''], 'de');
      expect(asCounts(result)).toEqual(expected);
      expect(result.find((facet) => facet.value === 'JP')!.label).toBe('Japan');
      expect(result.find((facet) => facet.value === 'MX')!.label).toBe('Mexiko');
      const labels = result.map((facet) => facet.label);
      expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
    });

    it('should count products per country of the sellers offering them', async () => {
      const expected = countProducts(inStockOffers(), (offer) => [sellerOf(offer).country]);
      const result = await facets('getCountriesOfSellersFilter', ['']);
      expect(asCounts(result)).toEqual(expected);
      expect(Object.keys(expected).length).toBeGreaterThanOrEqual(3);
      expect(result.find((facet) => facet.value === 'US')!.label).toBe('United States of America');
    });

    it('should count products per genetic type with readable labels', async () => {
      const expected = countProducts(inStockOffers(), (offer) => [productOf(offer).geneticType]);
      const result = await facets('getGeneticTypeFilter', ['']);
      expect(asCounts(result)).toEqual(expected);
      expect(result.find((facet) => facet.value === 'HEIRLOOM')!.label).toBe('Heirloom');
    });

    it('should narrow every filter to the offers of one SKU', async () => {
      const skuId = sharedSku();
      const offers = inStockOffers(skuId);
      expect(asCounts(await facets('getCountriesOfSellersFilter', [skuId]))).toEqual(
        countProducts(offers, (offer) => [sellerOf(offer).country]),
      );
      expect(asCounts(await facets('getGeneticTypeFilter', [skuId]))).toEqual(
        countProducts(offers, (offer) => [productOf(offer).geneticType]),
      );
    });

    it('should 404 an unknown SKU and 400 a malformed one', async () => {
      await call('getCountriesOfOriginFilter', [MISSING_ID]).expect(404);
      await call('getCountriesOfSellersFilter', ['abc']).expect(400);
      await call('getGeneticTypeFilter', [{ skuId: 'x' }]).expect(400);
      await call('getGeneticTypeFilter', []).expect(400);
    });
  });

  describe('dynamic filters', () => {
    it('should list the attributes of a type with the products having them', async () => {
      const offers = inStockOffers();
      const expectFor = (codes: string[]) =>
        Object.fromEntries(
          codes.map((code) => {
            const having = offers.filter((offer) => attributeValuesOf(offer, attributeId(code)).length > 0);
            return [attributeId(code), new Set(having.map((offer) => String(offer.product))).size];
          }),
        );
      const options = await facets('getDynamicFilters', ['', 'OPTION']);
      expect(asCounts(options)).toEqual(expectFor(['light', 'watering', 'pet-safe', 'form']));
      expect(options.map((facet) => facet.label)).toEqual(['Form', 'Light', 'Pet safe', 'Watering']);
      const values = await facets('getDynamicFilters', ['', 'value']);
      expect(asCounts(values)).toEqual(expectFor(['height', 'hardiness', 'pot-size']));
      await call('getDynamicFilters', ['', 'COLOUR']).expect(400);
    });

    it('should count products per option value, from product and SKU attributes', async () => {
      for (const code of ['light', 'form']) {
        const id = attributeId(code);
        const expected = countProducts(inStockOffers(), (offer) => attributeValuesOf(offer, id));
        expect(asCounts(await facets('getDynamicOptionFilters', ['', id]))).toEqual(expected);
      }
    });

    it('should count products per value, ordered numerically with the unit in the label', async () => {
      const id = attributeId('pot-size');
      const expected = countProducts(inStockOffers(), (offer) => attributeValuesOf(offer, id));
      const result = await facets('getDynamicValueFilters', ['', id]);
      expect(asCounts(result)).toEqual(expected);
      const ascending = Object.keys(expected)
        .map(Number)
        .sort((a, b) => a - b);
      expect(result.map((facet) => Number(facet.value))).toEqual(ascending);
      expect(result[0].label).toBe(`${result[0].value} cm`);
      const hardiness = await facets('getDynamicValueFilters', ['', attributeId('hardiness')]);
      expect(hardiness[0].value).toBe('-20');
    });

    it('should refuse an attribute of the other type, and 404 an unknown one', async () => {
      await call('getDynamicOptionFilters', ['', attributeId('height')]).expect(400);
      await call('getDynamicValueFilters', ['', attributeId('light')]).expect(400);
      await call('getDynamicValueFilters', ['', MISSING_ID]).expect(404);
      await call('getDynamicOptionFilters', [MISSING_ID, attributeId('light')]).expect(404);
      await call('getDynamicOptionFilters', ['', 'light']).expect(400);
    });
  });

  describe('product lists', () => {
    it('should list every product with in-stock offers, counting its offers', async () => {
      const expected: Record<string, number> = {};
      for (const offer of inStockOffers()) expected[String(offer.product)] = (expected[String(offer.product)] ?? 0) + 1;
      const result = await facets('getProductsListFilter', []);
      expect(asCounts(result)).toEqual(expected);
      const drafts = demo.products.filter((p) => !p.published).map((p) => String(p._id));
      expect(result.filter((facet) => drafts.includes(facet.value))).toEqual([]);
      expect(result.find((facet) => facet.label === 'Monstera deliciosa')).toBeDefined();
    });

    it('should match names literally and ignoring case', async () => {
      const result = await facets('getProductsListByRequestFilter', ['MONSTERA']);
      expect(result.map((facet) => facet.label)).toEqual(['Monstera deliciosa']);
      expect(await facets('getProductsListByRequestFilter', ['.*'])).toEqual([]);
      expect(await facets('getProductsListByRequestFilter', ['(a+)+$'])).toEqual([]);
      const all = await facets('getProductsListFilter', []);
      expect(await facets('getProductsListByRequestFilter', [''])).toEqual(all);
    });

    it('should treat regular-expression metacharacters literally (no pattern is built from the term)', async () => {
      const admin = t.tokenFor(Role.ADMIN);
      const created = await t.http
        .post('/api/v1/catalogue/products')
        .set('Authorization', `Bearer ${admin}`)
        .send({ name: 'Hoya (a+)+$ .* carnosa', published: true, countryOfOrigin: 'AU' })
        .expect(201);
      const offers = t.app.get<Model<SellerSku>>(getModelToken(SellerSku.name));
      const template = inStockOffers()[0];
      const product = created.body.id;
      await offers.create({ ...template, _id: undefined, sku: new Types.ObjectId(), product, quantity: 3 });

      const metachars = await facets('getProductsListByRequestFilter', ['(a+)+$']);
      const dotStar = await facets('getProductsListByRequestFilter', ['.*']);
      const evil = await facets('getProductsListByRequestFilter', [`${'a'.repeat(40)}!(a|aa)+$`]);
      expect(metachars.map((facet) => facet.value)).toEqual([created.body.id]);
      expect(dotStar.map((facet) => facet.value)).toEqual([created.body.id]);
      expect(evil).toEqual([]);
    });

    it('should refuse a search term that is not text or too long', async () => {
      await call('getProductsListByRequestFilter', [{ $regex: '.*' }]).expect(400);
      await call('getProductsListByRequestFilter', ['x'.repeat(201)]).expect(400);
    });
  });

  describe('getLoggedSellerSkusFilter', () => {
    it("should list the logged-in seller's own offers with their stock", async () => {
      const login = await t.http.post('/api/v1/auth/token').send({ username: 'seller.jp', password: DEMO_PASSWORD });
      expect(login.status).toBe(200);
      const seller = demo.sellers.find((s) => s.username === 'seller.jp')!;
      const own = demo.sellerSkus.filter((offer) => offer.seller.equals(seller._id));
      const response = await call('getLoggedSellerSkusFilter', [], { token: login.body.token }).expect(200);
      const result: Facet[] = response.body;
      expect(asCounts(result)).toEqual(Object.fromEntries(own.map((offer) => [String(offer._id), offer.quantity])));
      expect(result[0].label).toMatch(/ – /);
    });

    it('should give an empty list to a GUEST and to a user who is no seller', async () => {
      expect((await call('getLoggedSellerSkusFilter', []).expect(200)).body).toEqual([]);
      const buyer = t.tokenFor(Role.USER);
      expect((await call('getLoggedSellerSkusFilter', [], { token: buyer }).expect(200)).body).toEqual([]);
      await call('getLoggedSellerSkusFilter', ['extra']).expect(400);
    });
  });
});

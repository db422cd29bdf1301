import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { parseSitemap } from 'sitemap';
import { Readable } from 'node:stream';
import { Role } from '../../src/common/principal';
import { Product } from '../../src/services/catalogue/product.schema';
import { startTestApp, TestApp } from '../support/test-app';
import { demo, inStockOffers } from './support/demo-facets';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';
type Listed = { id: string; name: string; slug: string | null };
type Suggestion = { id: string; name: string; slug: string | null };

/** The demo products a guest can find: published, with an in-stock offer. */
const listedNames = () => {
  const listed = new Set(inStockOffers().map((offer) => String(offer.product)));
  return demo.products.filter((p) => listed.has(String(p._id))).map((p) => p.name);
};

describe('storefront search, type-ahead, languages and slugs', () => {
  let t: TestApp;
  const call = (fn: string, args: unknown[], lang?: string) => t.callBean(BEAN, fn, args, { lang });
  const search = async (q: string, lang?: string): Promise<Listed[]> =>
    ((await call('listProducts', [{ q, size: 100 }], lang).expect(200)).body as { items: Listed[] }).items;
  const suggest = async (prefix: string, lang?: string): Promise<Suggestion[]> =>
    (await call('suggest', [prefix], lang).expect(200)).body as Suggestion[];

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
  });

  afterAll(() => t.stop());

  describe('listProducts q', () => {
    it('should find a word by its beginning: "palm" finds Acer palmatum, "monst" Monstera', async () => {
      expect((await search('palm')).map((item) => item.name)).toContain('Acer palmatum Bloodgood');
      expect((await search('monst')).map((item) => item.name)).toEqual(['Monstera deliciosa']);
    });

    it('should tolerate one typo in a word of five letters or more, and none in shorter words', async () => {
      for (const typo of ['monsterra', 'monstrea', 'mnstera', 'monstara']) {
        expect((await search(typo)).map((item) => item.name)).toContain('Monstera deliciosa');
      }
      expect(await search('monstrrea')).toEqual([]); // two edits
      const ficus = listedNames().filter((name) => /\bficus\b/i.test(name));
      expect((await search('ficus')).map((item) => item.name).sort()).toEqual(ficus.sort());
      expect(await search('fucs')).toEqual([]); // four letters: no typo tolerance
    });

    it('should rank whole name words above prefixes and typos', async () => {
      const items = await search('ficus lyrata');
      expect(items[0].name).toBe('Ficus lyrata');
      const names = (await search('palmatum')).map((item) => item.name);
      expect(names[0]).toBe('Acer palmatum Bloodgood');
    });

    it('should take pattern syntax as text and stay bounded', async () => {
      for (const q of ['.*', '(a+)+$', `${'a'.repeat(40)}!(a|aa)+$`, '\\', '[']) {
        await call('listProducts', [{ q }]).expect(200);
      }
      expect(await search('.*')).toEqual([]);
    });
  });

  describe('suggest', () => {
    it('should suggest products by the beginnings of their words, best first', async () => {
      const suggestions = await suggest('mons');
      expect(suggestions.map((s) => s.name)).toEqual(['Monstera deliciosa']);
      expect(suggestions[0].slug).toBe('monstera-deliciosa');
      expect((await suggest('acer palm')).map((s) => s.name)).toEqual(['Acer palmatum Bloodgood']);
      expect(await suggest('zzzz')).toEqual([]);
      expect(await suggest('   ')).toEqual([]);
      expect((await suggest('a')).length).toBeLessThanOrEqual(10);
    });

    it('should refuse what is not a short text (400, DESIGN §3 shape)', async () => {
      for (const args of [[{ $regex: '.*' }], ['x'.repeat(201)], []]) {
        const response = await call('suggest', args).expect(400);
        expect(response.body).toMatchObject({ status: 400, error: expect.any(String), message: expect.any(String) });
        expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts:\d+/);
      }
    });
  });

  describe('content per language and slugs', () => {
    it('should answer in the Lang-Context language where the product has a translation, else in the base', async () => {
      const monstera = demo.products.find((p) => p.name === 'Monstera deliciosa')!;
      await t.app
        .get<Model<Product>>(getModelToken(Product.name))
        .updateOne(
          { _id: monstera._id },
          { $push: { translations: { lang: 'de', name: 'Fensterblatt', description: 'Zimmerpflanze' } } },
        )
        .exec();
      const id = String(monstera._id);
      const detail = async (lang: string) =>
        (await call('getProductDetail', [id], lang).expect(200)).body as Listed & { description: string };
      expect(await detail('de-AT')).toMatchObject({ name: 'Fensterblatt', description: 'Zimmerpflanze' });
      expect((await detail('en')).name).toBe('Monstera deliciosa');
      expect((await search('fensterbl', 'de')).map((item) => item.name)).toEqual(['Fensterblatt']);
      expect((await suggest('fenster', 'fr')).map((s) => s.name)).toEqual(['Monstera deliciosa']);
    });

    it("should put the listed products' pages in the sitemap by slug, and leave out unlisted ones", async () => {
      const admin = t.tokenFor(Role.ADMIN);
      const generator = 'sitemapGeneratorServiceImpl';
      const request = {
        siteMapGenType: 'PRODUCTS',
        urlPrefix: 'https://shop.example.com',
        urlsToIgnore: ['/products/aloe-vera'],
      };
      await t.callBean(generator, 'generateSiteMap', [request], { token: admin }).expect(200);
      for (let i = 0; i < 100; i++) {
        const busy = await t.callBean(generator, 'isWorkInProgress', [], { token: admin }).expect(200);
        if (busy.body === false) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const xml = (await t.http.get('/api/v1/sites/default/sitemap.xml').expect(200)).text;
      const urls = (await parseSitemap(Readable.from(xml))).map((item) => item.url);
      const products = t.app.get<Model<Product>>(getModelToken(Product.name));
      const listed = new Set(inStockOffers().map((offer) => String(offer.product)));
      const slugs = (await products.find({}, { slug: 1 }).lean().exec())
        .filter((p) => listed.has(String(p._id)) && p.slug !== 'aloe-vera')
        .map((p) => `https://shop.example.com/products/${p.slug}`);
      expect(urls.sort()).toEqual(slugs.sort());
      expect(urls.length).toBeGreaterThan(10);
    });

    it('should give every product a unique slug made from its name', async () => {
      const products = t.app.get<Model<Product>>(getModelToken(Product.name));
      const stored = await products.find({}, { slug: 1, name: 1 }).lean().exec();
      expect(stored.every((p) => typeof p.slug === 'string' && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(p.slug))).toBe(true);
      expect(new Set(stored.map((p) => p.slug)).size).toBe(stored.length);
      const twin = await products.create({ name: 'Monstera deliciosa', published: true });
      const slug = (await products.findById(twin._id).lean().exec())!.slug!;
      expect(slug).toMatch(/^monstera-deliciosa-[0-9a-f]{6}$/);
      expect(stored.find((p) => p.name === 'Monstera deliciosa')!.slug).toBe('monstera-deliciosa');
    });
  });
});

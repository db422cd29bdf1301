import { getConnectionToken } from '@nestjs/mongoose';
import { Connection, Types } from 'mongoose';
import { StorefrontIndexer } from '../../src/services/catalogue/storefront-indexer';
import { StorefrontReindex } from '../../src/services/catalogue/storefront-reindex';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';

/** What a guest sees of the whole storefront: every listing page, the filters, and the products list. */
async function storefront(t: TestApp) {
  const call = async (fn: string, args: unknown[]) => (await t.callBean(BEAN, fn, args).expect(200)).body as unknown;
  return {
    listing: await call('listProducts', [{ size: 100 }]),
    byPrice: await call('listProducts', [{ size: 100, sort: 'price', currency: 'EUR' }]),
    origins: await call('getCountriesOfOriginFilter', ['']),
    sellers: await call('getCountriesOfSellersFilter', ['']),
    genetic: await call('getGeneticTypeFilter', ['']),
    options: await call('getDynamicFilters', ['', 'OPTION']),
    products: await call('getProductsListFilter', []),
  };
}

/** Searches of every kind: a missing letter, a wrong one, every sort, relevance of one and two words, type-ahead. */
async function searches(t: TestApp) {
  const call = async (fn: string, args: unknown[]) => (await t.callBean(BEAN, fn, args).expect(200)).body as unknown;
  const answers: unknown[] = [];
  for (const q of ['monstra', 'monstefa', 'palm', 'acer palmatum']) {
    for (const sort of [undefined, 'price', '-price', 'name', '-name', 'newest']) {
      answers.push(await call('listProducts', [{ q, sort, size: 100 }]));
    }
    answers.push(await call('listProducts', [{ q, sort: '-price', currency: 'EUR', size: 100 }]));
  }
  answers.push(await call('suggest', ['monst']));
  return answers;
}

/**
 * Makes the stored index what the version before `slimsearch` wrote: the `*_desc` indexes, `d:<word less a
 * letter>` search keys (the strings of the `s:` keys), and descending key prices without the product id's complement.
 */
async function olderVersion(connection: Connection): Promise<void> {
  const entries = connection.collection('storefront_index');
  const older = { price: -1, _id: 1 };
  await entries.createIndex({ scope: 1, listed: 1, ...older }, { name: 'listing_price_desc' });
  await entries.createIndex({ scope: 1, listed: 1, searchKeys: 1, ...older }, { name: 'search_price_desc' });
  const stored = await entries.find({ listed: true }, { projection: { searchKeys: 1, keyPrices: 1 } }).toArray();
  for (const { _id, searchKeys, keyPrices } of stored) {
    const deletions = (searchKeys as string[]).flatMap((key) =>
      key.startsWith('s:') ? [`d:${key.split(':')[2]}`] : [],
    );
    const prices = (keyPrices as string[]).map((price) => (price.startsWith('d') ? price.slice(0, -24) : price));
    await entries.updateOne(
      { _id },
      { $set: { searchKeys: [...new Set([...searchKeys, ...deletions])], keyPrices: prices } },
    );
  }
}

describe('npm run reindex (StorefrontReindex)', () => {
  let t: TestApp;
  let connection: Connection;

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
    connection = t.app.get<Connection>(getConnectionToken());
  });

  afterAll(() => t.stop());

  it('should rebuild a lost index, resuming after being killed, and repair counters and orphans', async () => {
    const before = await storefront(t);
    expect((before.listing as { total: number }).total).toBeGreaterThan(10);

    // Lost entries, wrong counters, and the entry of a product that is gone (a copy of a listed one).
    const listed = await connection.collection('storefront_index').findOne({ scope: '*', listed: true });
    await connection.collection('storefront_index').deleteMany({});
    await connection.collection('storefront_facets').updateMany({}, { $set: { count: 99 } });
    const orphan = new Types.ObjectId();
    await connection
      .collection('storefront_index')
      .insertOne({ ...listed, _id: String(orphan) as never, product: orphan });
    expect(await storefront(t)).not.toEqual(before);

    // Killed during its first phase: the next run resumes from the checkpoint it left.
    const killed = new Error('killed');
    const phases: string[] = [];
    await expect(
      t.app.get(StorefrontReindex).run((phase) => {
        phases.push(phase);
        throw killed;
      }),
    ).rejects.toBe(killed);
    expect(phases).toEqual(['products']);
    const checkpoint = await connection.collection('storefront_reindex').findOne({});
    expect(checkpoint).toMatchObject({ phase: 'products', done: expect.any(Number) });

    const resumed: [string, number, number][] = [];
    await t.app.get(StorefrontReindex).run((phase, done, total) => resumed.push([phase, done, total]));
    expect(resumed.map(([phase]) => phase)).toEqual(['orphans', 'counters']);
    expect(await storefront(t)).toEqual(before);
    expect(await connection.collection('storefront_index').findOne({ _id: String(orphan) as never })).toMatchObject({
      listed: false,
    });
    expect(await connection.collection('storefront_reindex').countDocuments({})).toBe(0);
  });

  it('should start over when asked to, whatever a killed run left', async () => {
    await connection
      .collection('storefront_reindex')
      .insertOne({ _id: 'progress' as never, phase: 'orphans', after: null, done: 0 });
    const phases = new Set<string>();
    await t.app.get(StorefrontReindex).run((phase) => phases.add(phase), true);
    expect([...phases]).toEqual(['products', 'orphans', 'counters']);
  });

  it('should drop the indexes an earlier version declared and build the declared ones', async () => {
    const entries = connection.collection('storefront_index');
    // What a database indexed before `searchKeys` still has, and a declared index lost.
    await entries.createIndex({ scope: 1, listed: 1, terms: 1 }, { name: 'search_terms_listed' });
    await entries.dropIndex('listing_price');

    const phases: string[] = [];
    await t.app.get(StorefrontReindex).run((phase) => phases.push(phase));

    const names = (await entries.indexes()).map((index) => index.name);
    expect(names).not.toContain('search_terms_listed');
    expect(names).toContain('listing_price');
    expect(phases[0]).toBe('indexes dropped: search_terms_listed');
    const plan = await entries.find({ scope: '*', listed: true }).sort({ price: 1, _id: 1 }).limit(1).explain();
    expect(JSON.stringify(plan)).toContain('listing_price');
  });

  it("should answer alike from an older version's index, and rebuild it to the current one", async () => {
    const entries = connection.collection('storefront_index');
    const current = () =>
      entries
        .find({}, { projection: { searchKeys: 1, keyPrices: 1 } })
        .sort({ _id: 1 })
        .toArray();
    const [currentEntries, answers] = [await current(), await searches(t)];
    expect(answers.every((answer) => (answer as { total?: number }).total !== 0)).toBe(true);
    await olderVersion(connection);
    expect(await current()).not.toEqual(currentEntries);
    // Written behind the hooks' back: the cached answers are computed again.
    await new StorefrontIndexer(connection).renewListing();
    expect(await searches(t)).toEqual(answers);

    const phases: string[] = [];
    await t.app.get(StorefrontReindex).run((phase) => phases.push(phase));
    expect(phases[0]).toMatch(/^indexes dropped: (listing|search)_price_desc, (listing|search)_price_desc$/);
    expect(await current()).toEqual(currentEntries);
    expect(await searches(t)).toEqual(answers);
  });

  // Entries written before `priceKeys` (issue 23, `pricecount`) are found by a price range through their offers, as
  // before, until the rebuild gives them their keys. No price range is asked before this test: the storefront
  // remembers a scope whose entries all have keys.
  it('should answer price ranges alike from entries without price keys, and rebuild them with keys', async () => {
    const entries = connection.collection('storefront_index');
    const ranges = async () => {
      const call = async (query: object) =>
        (await t.callBean(BEAN, 'listProducts', [{ ...query, size: 100 }]).expect(200)).body as { total: number };
      const answers: { total: number }[] = [];
      for (const sort of ['newest', 'price', 'name']) {
        answers.push(await call({ minPrice: 1000, maxPrice: 2000, currency: 'EUR', sort }));
        answers.push(await call({ minPrice: 500, maxPrice: 1999, sort }));
        answers.push(
          await call({ minPrice: 0, maxPrice: 100_000, currency: 'EUR', sort, categories: ['Houseplants'] }),
        );
      }
      return answers;
    };
    await entries.updateMany({}, { $unset: { priceKeys: '' } });
    await new StorefrontIndexer(connection).renewListing();
    const answers = await ranges();
    expect(answers.every((answer) => answer.total > 0)).toBe(true);

    await t.app.get(StorefrontReindex).run(() => undefined);
    expect(await entries.countDocuments({ listed: true, priceKeys: { $exists: false } })).toBe(0);
    expect(await entries.countDocuments({ listed: true, priceKeys: 'EUR|3:1' })).toBeGreaterThan(0);
    expect(await ranges()).toEqual(answers);
  });
});

'use strict';
/**
 * A price range's queries on a stored catalogue, before and after the price keys (`priceKeys`, branch `pricecount`):
 *   DATA_DIR=<copy> node bench/storefront/price-range-queries.js [--reindex] [--scope EUR] [--min 500] [--max 2000]
 *   node bench/storefront/price-range-queries.js --scale 1000
 * Run `npm run build` first. Opens the app on the store (no seed; `--reindex` rebuilds the index first, timed, so
 * that its entries have price keys), then sends each query of the listing's second page sorted by newest, one at a
 * time and alternating, through the app's connection: the page and the two counts of the total as `main` reads them
 * (through the offers), and the page and the one count through the price keys. Prints each query's median wall time
 * (so it counts the machine's load), its plan with keys and entries examined, and whether both answer alike.
 * `--scale N` instead loads the entries of the N× demo catalogue, computed as the indexer does (`entriesOf`, every
 * offer active), into an in-memory embedded database with the declared indexes but the search ones (`search_*`,
 * `name_grams_by_name`: their keys would not fit the heap at 1000×, and no price range reads them), the entries
 * without their search keys and trigrams (most of an entry's size), and queries it.
 */
const { parseArgs } = require('node:util');
const { getConnectionToken } = require('@nestjs/mongoose');
const { createApp } = require('../../dist/bootstrap');
const { StorefrontReindex, printedProgress } = require('../../dist/services/catalogue/storefront-reindex');
const { priceKeysWithin } = require('../../dist/services/catalogue/price-keys');
const { LISTING_FIELDS } = require('../../dist/services/catalogue/storefront-reader');

const { values } = parseArgs({
  options: {
    reindex: { type: 'boolean', default: false },
    scope: { type: 'string', default: 'EUR' },
    min: { type: 'string', default: '500' },
    max: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '15' },
    scale: { type: 'string' },
  },
});

/** The entries of the N× demo catalogue in an in-memory database (see above); @returns it and its database. */
async function syntheticIndex(scale) {
  const { MongoClient } = require('mongodb');
  const { EmbeddedMongoServer } = require('../../packages/embedded-mongo/dist');
  const { buildDemoCatalogue } = require('../../dist/seed/demo-data');
  const { entriesOf } = require('../../dist/services/catalogue/storefront-entry');
  const { StorefrontEntrySchema } = require('../../dist/services/catalogue/storefront-index.schema');
  const server = await EmbeddedMongoServer.start({ port: 0, lowerPriority: false });
  const client = await MongoClient.connect(server.uri);
  const collection = client.db('synthetic').collection('storefront_index');
  for (const [key, options] of StorefrontEntrySchema.indexes()) {
    if (!/^(search_|name_grams)/.test(options.name)) await collection.createIndex(key, options);
  }
  const data = buildDemoCatalogue(scale);
  const byProduct = (rows) => {
    const groups = new Map();
    for (const row of rows) groups.set(String(row.product), [...(groups.get(String(row.product)) ?? []), row]);
    return groups;
  };
  const [skus, offers] = [byProduct(data.skus), byProduct(data.sellerSkus)];
  const sellers = new Map(data.sellers.map((seller) => [String(seller._id), seller]));
  const attributes = new Map(data.attributes.map((label) => [String(label._id), label]));
  const started = Date.now();
  for (let at = 0; at < data.products.length; at += 500) {
    const entries = data.products.slice(at, at + 500).flatMap((product) =>
      entriesOf({
        product: { ...product, createdAt: product._id.getTimestamp() },
        skus: skus.get(String(product._id)) ?? [],
        offers: offers.get(String(product._id)) ?? [],
        sellers,
        attributes,
      }),
    );
    const unsearched = entries.map(({ searchKeys: _keys, nameGrams: _grams, ...entry }) => entry);
    await collection.insertMany(unsearched, { ordered: false });
  }
  process.stdout.write(`loaded ${data.products.length} products in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  return { db: client.db('synthetic'), close: () => client.close().then(() => server.stop()) };
}

/** The app on the store under DATA_DIR (see above); @returns its database. */
async function storedIndex() {
  const app = await createApp({ ...process.env, SEED_DEMO: 'false', EMBEDDED_DB_LOWER_PRIORITY: 'false' });
  await app.init();
  if (values.reindex) {
    const started = Date.now();
    await app.get(StorefrontReindex).run(printedProgress());
    process.stdout.write(`reindex: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  return { db: app.get(getConnectionToken()).db, close: () => app.close() };
}

function planOf(stage) {
  if (!stage) return '';
  const examined = stage.keysExamined !== undefined ? ` keys ${stage.keysExamined}` : '';
  const docs = stage.docsExamined !== undefined ? ` entries ${stage.docsExamined}` : '';
  const inner = stage.inputStage ?? stage.inputStages?.[0];
  const count = stage.inputStages ? `${stage.inputStages.length}× ` : '';
  return `${stage.stage}${stage.indexName ? ` ${stage.indexName}` : ''}${examined}${docs}${inner ? ` > ${count}${planOf(inner)}` : ''}`;
}

async function main() {
  const { db, close } = values.scale ? await syntheticIndex(Number(values.scale)) : await storedIndex();
  const [min, max] = [Number(values.min), Number(values.max)];
  const listed = { scope: values.scope, listed: true };
  const inStockWithin = { offers: { $elemMatch: { quantity: { $gt: 0 }, price: { $gte: min, $lte: max } } } };
  const oldFilter = { ...listed, $and: [inStockWithin, { price: { $lte: max } }] };
  // As `StorefrontReader` sends it: the keys name the scope and the listed state (`listedQuery`).
  const newFilter = { priceKeys: { $in: priceKeysWithin(values.scope, min, max) } };
  const page = (filter) => ({
    find: 'storefront_index',
    filter,
    sort: { createdAt: -1, _id: -1 },
    skip: 20,
    limit: 20,
    projection: { ...LISTING_FIELDS, offers: 1 },
  });
  const count = (query) => ({ count: 'storefront_index', query });
  const queries = {
    'main: page': page(oldFilter),
    'main: count of cheapest within': count({ ...listed, price: { $gte: min, $lte: max } }),
    'main: count of cheaper with one within': count({ ...listed, $and: [{ price: { $lt: min } }, inStockWithin] }),
    'price keys: page': page(newFilter),
    'price keys: count': count(newFilter),
  };
  const times = Object.fromEntries(Object.keys(queries).map((name) => [name, []]));
  const answers = {};
  for (let run = 0; run < Number(values.runs); run++) {
    for (const [name, command] of Object.entries(queries)) {
      const started = process.hrtime.bigint();
      const reply = await db.command(command);
      times[name].push(Number(process.hrtime.bigint() - started) / 1e6);
      answers[name] = reply.n ?? reply.cursor.firstBatch.map((entry) => entry._id);
    }
  }
  for (const [name, command] of Object.entries(queries)) {
    const explained = await db.command({ explain: command, verbosity: 'executionStats' });
    const sorted = times[name].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    process.stdout.write(
      `${name.padEnd(40)} ${median.toFixed(2).padStart(9)} ms  ${planOf(explained.executionStats.executionStages)}\n`,
    );
  }
  const total = answers['main: count of cheapest within'] + answers['main: count of cheaper with one within'];
  const samePage = JSON.stringify(answers['main: page']) === JSON.stringify(answers['price keys: page']);
  process.stdout.write(`total ${total} / ${answers['price keys: count']}, same page: ${samePage}\n`);
  await close();
}

void main();

'use strict';
/**
 * What the storefront index of a scaled demo catalogue costs the embedded database's heap, per product:
 *   node --expose-gc bench/storefront/index-memory.js [--scale 4]
 * Run `npm run build` first (it reads the app's and the package's `dist/`). The entries are computed as the indexer
 * computes them (`entriesOf`, every offer active), kept as the database keeps a stored document (its deserialized
 * BSON), and added to the database's own `Index` of each index the schema declares, and `_id`. Heap is measured after
 * a full GC. The database's worker thread holds all of it, within V8's heap limit for the thread.
 */
const { getHeapStatistics } = require('node:v8');
const { parseArgs } = require('node:util');
const { fromBson, serializeDocument } = require('../../packages/embedded-mongo/dist/bson/codec');
const { Index } = require('../../packages/embedded-mongo/dist/indexes/index');
const { buildDemoCatalogue } = require('../../dist/seed/demo-data');
const { entriesOf } = require('../../dist/services/catalogue/storefront-entry');
const { StorefrontEntrySchema } = require('../../dist/services/catalogue/storefront-index.schema');

const { values } = parseArgs({ options: { scale: { type: 'string', default: '4' } } });
if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');

function byProduct(rows) {
  const groups = new Map();
  for (const row of rows) groups.set(String(row.product), [...(groups.get(String(row.product)) ?? []), row]);
  return groups;
}

function storefrontEntries(scale) {
  const data = buildDemoCatalogue(scale);
  const sellers = new Map(data.sellers.map((seller) => [String(seller._id), seller]));
  const attributes = new Map(data.attributes.map((label) => [String(label._id), label]));
  const skus = byProduct(data.skus);
  const offers = byProduct(data.sellerSkus);
  return data.products.flatMap((product) =>
    entriesOf({
      product,
      skus: skus.get(String(product._id)) ?? [],
      offers: offers.get(String(product._id)) ?? [],
      sellers,
      attributes,
    }),
  );
}

function heapAfterGc() {
  global.gc();
  return process.memoryUsage().heapUsed;
}

const scale = Number(values.scale);
const computed = storefrontEntries(scale);
const products = new Set(computed.map((entry) => String(entry.product))).size;
const start = heapAfterGc();
const stored = computed.map((entry) => fromBson(serializeDocument(entry)));
const afterDocs = heapAfterGc();
const specs = [
  { v: 2, name: '_id_', key: { _id: 1 } },
  ...StorefrontEntrySchema.indexes().map(([key, options]) => ({ v: 2, ...options, key })),
];
const indexes = specs.map((spec) => new Index(spec));
for (const doc of stored) for (const index of indexes) index.add(doc, String(doc._id));
const afterIndexes = heapAfterGc();

const keysIn = (list) => list.reduce((sum, index) => sum + index.size, 0);
const keys = keysIn(indexes);
const searchKeys = keysIn(indexes.filter((index) => index.name.startsWith('search_')));
const perProduct = (bytes) => `${Math.round(bytes / products / 1024)} KiB`;
const limit = getHeapStatistics().heap_size_limit;
process.stdout.write(
  [
    `scale ${scale}: ${products} products, ${stored.length} entries, ${keys} index keys in ${indexes.length} indexes`,
    `index keys per product: ${Math.round(keys / products)} (${Math.round(searchKeys / products)} in the search_* indexes)`,
    `heap per product: documents ${perProduct(afterDocs - start)}, index keys ${perProduct(afterIndexes - afterDocs)}` +
      ` (${Math.round((afterIndexes - afterDocs) / keys)} bytes a key)`,
    `heap limit of a thread here: ${Math.round(limit / 2 ** 20)} MiB, about ${Math.round(limit / ((afterIndexes - start) / products))} products`,
  ].join('\n') + '\n',
);

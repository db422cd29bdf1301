'use strict';
/**
 * What the storefront index of a scaled demo catalogue costs the embedded database's heap, per product:
 *   node --expose-gc bench/storefront/index-memory.js [--scale 4] [--objects]
 * Run `npm run build` first (it reads the app's and the package's `dist/`). The entries are computed as the indexer
 * computes them (`entriesOf`, every offer active), kept as the database keeps a stored document (its deserialized
 * BSON), and added to the database's own `Index` of each index the schema declares, and `_id`. Heap is measured after
 * a full GC. The database's worker thread holds all of it, within V8's heap limit for the thread. Also printed: the
 * time a full GC takes once everything is built (median of 3, wall clock, so it counts the machine's load), and with
 * `--objects` the heap objects the indexes add per key (counted in heap snapshots, which take a while).
 */
const { readFileSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { getHeapStatistics, writeHeapSnapshot } = require('node:v8');
const { parseArgs } = require('node:util');
const { fromBson, serializeDocument } = require('../../packages/embedded-mongo/dist/bson/codec');
const { Index } = require('../../packages/embedded-mongo/dist/indexes/index');
const { buildDemoCatalogue } = require('../../dist/seed/demo-data');
const { entriesOf } = require('../../dist/services/catalogue/storefront-entry');
const { StorefrontEntrySchema } = require('../../dist/services/catalogue/storefront-index.schema');

const { values } = parseArgs({
  options: { scale: { type: 'string', default: '4' }, objects: { type: 'boolean', default: false } },
});
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

/** Objects in the heap, as a heap snapshot counts them (after a full GC). */
function heapObjects() {
  const file = writeHeapSnapshot(path.join(os.tmpdir(), `index-memory-${process.pid}.heapsnapshot`));
  try {
    const { snapshot, nodes } = JSON.parse(readFileSync(file, 'utf8'));
    return nodes.length / snapshot.meta.node_fields.length;
  } finally {
    rmSync(file);
  }
}

/** Milliseconds of a full GC of everything held (median of 3). */
function fullGcMillis() {
  const times = [0, 1, 2].map(() => {
    const start = performance.now();
    global.gc();
    return performance.now() - start;
  });
  return times.sort((a, b) => a - b)[1];
}

const scale = Number(values.scale);
const computed = storefrontEntries(scale);
const products = new Set(computed.map((entry) => String(entry.product))).size;
const start = heapAfterGc();
const stored = computed.map((entry) => fromBson(serializeDocument(entry)));
const afterDocs = heapAfterGc();
const objectsBefore = values.objects ? heapObjects() : 0;
const specs = [
  { v: 2, name: '_id_', key: { _id: 1 } },
  ...StorefrontEntrySchema.indexes().map(([key, options]) => ({ v: 2, ...options, key })),
];
const indexes = specs.map((spec) => new Index(spec));
for (const doc of stored) for (const index of indexes) index.add(doc, String(doc._id));
const afterIndexes = heapAfterGc();
const objectsAdded = values.objects ? heapObjects() - objectsBefore : 0;
const gcMillis = fullGcMillis();

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
    `full GC with all of it held: ${gcMillis.toFixed(0)} ms`,
    ...(values.objects ? [`heap objects the indexes add: ${(objectsAdded / keys).toFixed(2)} a key`] : []),
  ].join('\n') + '\n',
);

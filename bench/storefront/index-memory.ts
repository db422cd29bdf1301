import { parseArgs } from 'node:util';
import { Types } from 'mongoose';
import { fromBson, serializeDocument } from '../../packages/embedded-mongo/src/bson/codec';
import { Index } from '../../packages/embedded-mongo/src/indexes/index';
import type { IndexSpec } from '../../packages/embedded-mongo/src/indexes/index-spec';
import type { Doc } from '../../packages/embedded-mongo/src/types';
import { buildDemoCatalogue } from '../../src/seed/demo-data';
import {
  AttributeLabel,
  entriesOf,
  OfferSource,
  SkuSource,
  StorefrontEntry,
} from '../../src/services/catalogue/storefront-entry';
import { StorefrontEntrySchema } from '../../src/services/catalogue/storefront-index.schema';

/**
 * `node --expose-gc test/support/run-ts.js bench/storefront/index-memory.ts [--scale 10]`: what the storefront index
 * of a scaled demo catalogue costs the embedded database's heap, per product. The entries are computed as the
 * indexer computes them (`entriesOf`, every offer active), kept as the database keeps a stored document (its
 * deserialized BSON), and added to the database's own `Index` of each index the schema declares (and `_id`). Heap
 * is measured after a full GC. The database's worker thread holds all of it, within V8's heap limit for the thread.
 */
const { values } = parseArgs({ options: { scale: { type: 'string', default: '10' } } });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function storefrontEntries(scale: number): StorefrontEntry[] {
  const data = buildDemoCatalogue(scale);
  const sellers = new Map(data.sellers.map((seller) => [String(seller._id), seller]));
  const attributes = new Map<string, AttributeLabel>(data.attributes.map((label) => [String(label._id), label]));
  const byProduct = <T extends { product: Types.ObjectId }>(rows: T[]) => {
    const groups = new Map<string, T[]>();
    for (const row of rows) groups.set(String(row.product), [...(groups.get(String(row.product)) ?? []), row]);
    return groups;
  };
  const skus = byProduct(data.skus);
  const offers = byProduct(data.sellerSkus);
  return data.products.flatMap((product) =>
    entriesOf({
      product,
      skus: (skus.get(String(product._id)) ?? []) as SkuSource[],
      offers: (offers.get(String(product._id)) ?? []) as OfferSource[],
      sellers,
      attributes,
    }),
  );
}

function heapAfterGc(): number {
  gc!();
  return process.memoryUsage().heapUsed;
}

const scale = Number(values.scale);
const computed = storefrontEntries(scale);
const products = new Set(computed.map((entry) => String(entry.product))).size;
const start = heapAfterGc();
const stored = computed.map((entry) => fromBson(serializeDocument(entry as unknown as Doc)));
const afterDocs = heapAfterGc();
const specs: IndexSpec[] = [
  { name: '_id_', key: { _id: 1 } },
  ...StorefrontEntrySchema.indexes().map(([key, options]) => ({ ...options, key }) as IndexSpec),
];
const indexes = specs.map((spec) => new Index(spec));
for (const doc of stored) for (const index of indexes) index.add(doc, String(doc._id));
const afterIndexes = heapAfterGc();

const keys = indexes.reduce((sum, index) => sum + index.size, 0);
const searchKeys = indexes.filter((index) => index.name.startsWith('search_')).reduce((sum, i) => sum + i.size, 0);
const perProduct = (bytes: number) => `${Math.round(bytes / products / 1024)} KiB`;
const limit = (require('node:v8') as typeof import('node:v8')).getHeapStatistics().heap_size_limit;
process.stdout.write(
  [
    `scale ${scale}: ${products} products, ${stored.length} entries, ${keys} index keys in ${indexes.length} indexes`,
    `index keys per product: ${Math.round(keys / products)} (${Math.round(searchKeys / products)} in the search_* indexes)`,
    `heap per product: documents ${perProduct(afterDocs - start)}, index keys ${perProduct(afterIndexes - afterDocs)}` +
      ` (${Math.round((afterIndexes - afterDocs) / keys)} bytes a key)`,
    `heap limit of a thread here: ${Math.round(limit / 2 ** 20)} MiB, about ${Math.round(limit / ((afterIndexes - start) / products))} products`,
  ].join('\n') + '\n',
);

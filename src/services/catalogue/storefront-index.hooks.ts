import { AsyncLocalStorage } from 'node:async_hooks';
import { Connection, Document, Model, MongooseQueryMiddleware, Query, Schema, Types } from 'mongoose';
import { INDEX_COLLECTION, StorefrontIndexer } from './storefront-indexer';

/** Query writes (`updateOne`/`deleteOne` also run for `doc.updateOne()`/`doc.deleteOne()`, which build a query). */
const QUERY_WRITES: MongooseQueryMiddleware[] = [
  'updateOne',
  'updateMany',
  'replaceOne',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'deleteOne',
  'deleteMany',
];

/**
 * How the documents of one catalogue collection lead to the products whose storefront entries show them: a product
 * is its own, a SKU or an offer names its product, a seller shows in the products of its offers, an attribute in the
 * products whose entries name it (entries keep its name, type and unit).
 */
export type ProductsOf = (
  connection: Connection,
  written: AffectedDoc[],
  before: AffectedDoc[],
) => Promise<Types.ObjectId[]>;

/**
 * What the hooks know of a written document: its id and, for SKUs and offers, its product (as written; left out
 * where the write may have changed it, so that it is read again).
 */
export interface AffectedDoc {
  _id: Types.ObjectId;
  product?: Types.ObjectId;
}

/** Products by their own ids. */
export const ownIds: ProductsOf = (_connection, written) => Promise.resolve(written.map((doc) => doc._id));

/** SKUs and offers: the product they name after the write (read where not known), and the one before it. */
export function namedProduct(collection: string): ProductsOf {
  return async (connection, written, before) => {
    const unknown = written.filter((doc) => !doc.product).map((doc) => doc._id);
    const read =
      unknown.length === 0
        ? []
        : await connection
            .collection(collection)
            .find({ _id: { $in: unknown } }, { projection: { product: 1 } })
            .toArray();
    return [...before, ...written, ...read].map((doc) => doc.product as Types.ObjectId).filter(Boolean);
  };
}

/** Sellers: the products of their offers. */
export const productsOfSellers: ProductsOf = async (connection, sellers) => {
  const offers = await connection
    .collection('seller_skus')
    .find({ seller: { $in: sellers.map((seller) => seller._id) } }, { projection: { product: 1 } })
    .toArray();
  return offers.map((offer) => offer.product as Types.ObjectId);
};

/** Attributes: the products whose entries name them (index `attribute_ids` of the storefront index). */
export const productsNamingAttributes: ProductsOf = async (connection, attributes) => {
  const entries = await connection
    .collection(INDEX_COLLECTION)
    .find({ attributeIds: { $in: attributes.map((attribute) => attribute._id) } }, { projection: { product: 1 } })
    .toArray();
  return entries.map((entry) => entry.product as Types.ObjectId);
};

const BEFORE = Symbol('storefront index: documents matched before the write');
type Marked = { [BEFORE]?: AffectedDoc[] };

/**
 * Keeps the storefront index current for every write mongoose makes through a model of `schema`: after the write, the
 * entries of the products it touched are recomputed (`StorefrontIndexer`), awaited, so the writer's next read, on any
 * instance, sees them. Query writes find the documents they will touch first (one indexed read by the write's own
 * filter), which also gives the products of deleted documents. A failed write refreshes too: an unordered
 * `insertMany` or an interrupted multi-document update may have written part of its documents.
 * `bulkWrite` (and `bulkSave`) are refused: their operations would each need the same reading, and nothing uses them.
 */
export function keepsStorefrontIndex(schema: Schema, productsOf: ProductsOf): void {
  const refresh = (connection: Connection, docs: AffectedDoc[], before: AffectedDoc[] = []) =>
    refreshFor(connection, productsOf, docs, before);

  schema.post('save', function (this: Document) {
    return refresh((this.constructor as Model<unknown>).db, [this]);
  });

  schema.pre(QUERY_WRITES, { document: false, query: true }, async function (this: Query<unknown, unknown> & Marked) {
    this[BEFORE] = await matched(this);
  });
  const afterQuery = async function (this: Query<unknown, unknown> & Marked) {
    const before = this[BEFORE] ?? [];
    const upserted = this.getOptions().upsert ? await matched(this) : [];
    // Where the write may have moved a document to another product, its product after the write is read again.
    const written = mayChangeProduct(this) ? before.map(({ _id }) => ({ _id })) : before;
    await refresh(this.model.db, [...written, ...upserted], before);
  };
  schema.post(QUERY_WRITES, { document: false, query: true }, afterQuery);
  schema.post(
    QUERY_WRITES,
    { document: false, query: true, errorHandler: true },
    async function (this: Query<unknown, unknown> & Marked) {
      await afterQuery.call(this).catch(() => undefined);
    },
  );

  schema.post('insertMany', function (this: Model<unknown>, docs: unknown) {
    return refresh(this.db, docs as AffectedDoc[]);
  });
  // An unordered insert that failed for some documents names those it wrote (`insertedDocs`).
  schema.post('insertMany', { errorHandler: true }, async function (this: Model<unknown>, error: Error) {
    const written = (error as Error & { insertedDocs?: AffectedDoc[] }).insertedDocs ?? [];
    await refresh(this.db, written).catch(() => undefined);
  });
  schema.pre('bulkWrite', function (this: Model<unknown>) {
    throw new Error(
      `${this.modelName}.bulkWrite would bypass the storefront index: write with updateMany or insertMany`,
    );
  });
}

/** Whether a query write may set a document's `product` (a replacement, a pipeline, or an operator naming it). */
function mayChangeProduct(query: Query<unknown, unknown>): boolean {
  const update = query.getUpdate() as Record<string, unknown> | unknown[] | null | undefined;
  if (!update) return false;
  if (Array.isArray(update)) return true;
  const isProductPath = (path: string) => path === 'product' || path.startsWith('product.');
  return Object.entries(update).some(([key, value]) =>
    key.startsWith('$') ? Object.keys(value ?? {}).some(isProductPath) : isProductPath(key),
  );
}

/** The documents a query write's filter matches now (id and product), through the model so the filter is cast. */
async function matched(query: Query<unknown, unknown>): Promise<AffectedDoc[]> {
  return query.model.find(query.getFilter(), { _id: 1, product: 1 }).lean<AffectedDoc[]>().exec();
}

/** Set while a `withoutIndexRefresh` load runs: its writes leave the storefront index to a rebuild. */
const quiet = new AsyncLocalStorage<true>();

/**
 * Runs `load` (writes of many products through the models, such as the demo seed) without refreshing the storefront
 * index per write: the caller rebuilds it once afterwards (`StorefrontReindex`), in batches and resumably. A load of
 * products, SKUs, offers and sellers one collection after the other would otherwise recompute each product once per
 * collection, per document inserted. Readers meanwhile see the products written so far without their entries.
 */
export function withoutIndexRefresh<T>(load: () => Promise<T>): Promise<T> {
  return quiet.run(true, load);
}

async function refreshFor(connection: Connection, productsOf: ProductsOf, docs: AffectedDoc[], before: AffectedDoc[]) {
  if (docs.length === 0 || quiet.getStore()) return;
  const products = await productsOf(connection, docs, before);
  await new StorefrontIndexer(connection).refresh(products);
}

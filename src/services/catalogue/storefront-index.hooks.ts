import { AsyncLocalStorage } from 'node:async_hooks';
import { Connection, Document, Model, MongooseQueryMiddleware, Query, Schema, Types } from 'mongoose';
import { renewAttributesRevision } from './attribute-revision';
import type { OfferSource } from './source-records';
import { INDEX_COLLECTION, IndexSourcesRead, StorefrontIndexer } from './storefront-indexer';

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
const productsNamingAttributes: ProductsOf = async (connection, attributes) => {
  const entries = await connection
    .collection(INDEX_COLLECTION)
    .find({ attributeIds: { $in: attributes.map((attribute) => attribute._id) } }, { projection: { product: 1 } })
    .toArray();
  return entries.map((entry) => entry.product as Types.ObjectId);
};

/**
 * Attribute writes: the attributes' revision renewed (the filters' attributes kept in memory are read again on every
 * instance's next call, see `attribute-revision.ts`), then the products whose entries name the attributes.
 */
export const attributesWritten: ProductsOf = async (connection, attributes, before) => {
  await renewAttributesRevision(connection);
  return productsNamingAttributes(connection, attributes, before);
};

const BEFORE = Symbol('storefront index: documents matched before the write');
type Marked = { [BEFORE]?: AffectedDoc[] };

/** Query writes of one document that answer it: their answer names its product, so no read is needed before them. */
const ANSWERING_WRITES = new Set<MongooseQueryMiddleware>([
  'findOneAndUpdate',
  'findOneAndDelete',
  'findOneAndReplace',
]);
/** Query writes that update documents in place (not replacing nor deleting them). */
const UPDATES = new Set<MongooseQueryMiddleware>(['updateOne', 'updateMany', 'findOneAndUpdate']);

/** How a schema's writes are followed besides the products they touch. */
export interface IndexHookOptions {
  /**
   * The fields whose changes touch nothing of a product's entries but the written documents' own figures (an offer's
   * stock, price, currency, active flag): a query update of these alone refreshes through
   * `StorefrontIndexer.refreshOffers`, from the stored entry and the product's offers, instead of every source.
   */
  ownFields?: ReadonlySet<string>;
}

/**
 * Keeps the storefront index current for every write mongoose makes through a model of `schema`: after the write, the
 * entries of the products it touched are recomputed (`StorefrontIndexer`), awaited, so the writer's next read, on any
 * instance, sees them. Query writes find the documents they will touch first (one indexed read by the write's own
 * filter), which also gives the products of deleted documents. A failed write refreshes too: an unordered
 * `insertMany` or an interrupted multi-document update may have written part of its documents.
 * `bulkWrite` (and `bulkSave`) are refused: their operations would each need the same reading, and nothing uses them.
 */
export function keepsStorefrontIndex(schema: Schema, productsOf: ProductsOf, options: IndexHookOptions = {}): void {
  const refresh = (connection: Connection, docs: AffectedDoc[], before: AffectedDoc[] = [], kind: Refresh = 'full') =>
    refreshFor(connection, productsOf, { docs, before, kind });

  schema.post('save', function (this: Document) {
    return refresh((this.constructor as Model<unknown>).db, [this]);
  });

  for (const op of QUERY_WRITES) {
    schema.pre(op, { document: false, query: true }, async function (this: Query<unknown, unknown> & Marked) {
      if (!answersWritten(op, this)) this[BEFORE] = await matched(this);
    });
    const afterQuery = async function (this: Query<unknown, unknown> & Marked, answer?: unknown) {
      const before = answersWritten(op, this) ? answered(this, answer) : (this[BEFORE] ?? []);
      const upserted = this.getOptions().upsert ? await matched(this) : [];
      // Where the write may have moved a document to another product, its product after the write is read again.
      const written = mayChangeProduct(this) ? before.map(({ _id }) => ({ _id })) : before;
      const kind = options.ownFields && changesOnly(op, this, options.ownFields) ? 'offers' : 'full';
      const read = kind === 'offers' && answersWritten(op, this) ? sourcesReadFor(this, answer) : undefined;
      await refreshFor(this.model.db, productsOf, { docs: [...written, ...upserted], before, kind, read });
    };
    schema.post(op, { document: false, query: true }, afterQuery);
    // A failed write of one document that answers it wrote nothing; any other may have written part of its documents.
    schema.post(
      op,
      { document: false, query: true, errorHandler: true },
      async function (this: Query<unknown, unknown> & Marked) {
        await afterQuery.call(this).catch(() => undefined);
      },
    );
  }

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
  return updatedPaths(update).some((path) => rootOf(path) === 'product');
}

/**
 * Whether the write is one document's update or deletion that answers it (not an upsert, not moving it to another
 * product): its answer, or none, says which document and product it touched.
 */
function answersWritten(op: MongooseQueryMiddleware, query: Query<unknown, unknown>): boolean {
  return ANSWERING_WRITES.has(op) && !query.getOptions().upsert && !mayChangeProduct(query);
}

/** The document an answering write touched, as its answer names it (none when it matched none or failed). */
function answered(query: Query<unknown, unknown>, answer: unknown): AffectedDoc[] {
  const doc = answeredDoc(query, answer);
  return doc ? [{ _id: doc._id, product: doc.product }] : [];
}

/** The document an answering write answered, whole (as projected), or none. */
function answeredDoc(query: Query<unknown, unknown>, answer: unknown): AffectedDoc | undefined {
  const doc = (query.getOptions().includeResultMetadata ? (answer as { value?: unknown })?.value : answer) as
    AffectedDoc | null | undefined;
  return doc?._id ? doc : undefined;
}

/** Whether the write is an update (not a replacement, a pipeline or a deletion) of the fields `own` alone. */
function changesOnly(op: MongooseQueryMiddleware, query: Query<unknown, unknown>, own: ReadonlySet<string>): boolean {
  if (!UPDATES.has(op)) return false;
  const update = query.getUpdate() as Record<string, unknown> | unknown[] | null | undefined;
  if (!update || Array.isArray(update)) return false;
  return updatedPaths(update).every((path) => own.has(rootOf(path)));
}

/** The paths an update document names, under its operators (`$inc: {quantity}`) or bare (`{quantity}`, a `$set`). */
function updatedPaths(update: Record<string, unknown>): string[] {
  return Object.entries(update).flatMap(([key, value]) =>
    key.startsWith('$') ? Object.keys((value as Record<string, unknown> | null) ?? {}) : [key],
  );
}

function rootOf(path: string): string {
  const dot = path.indexOf('.');
  return dot < 0 ? path : path.slice(0, dot);
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

/** What `withIndexSourcesRead` hands to the refresh of the first offer write it runs (then nothing). */
const readAhead = new AsyncLocalStorage<{ sources?: IndexSourcesRead }>();

/**
 * Runs `write`, a write of one offer of the product whose index sources (`IndexSourcesRead`) the caller read in the
 * same read as the offer (`indexSourcesLookups`), after the last write of that product's offers it knows of: the
 * refresh of the first update of that offer's own fields in `write` derives the entries from `sources` with the
 * written offer as the update answered it, instead of reading them again (one round trip fewer). Correct as the
 * refresh's own read is: the offers were read after the entry's version, and the write of the entries is conditional
 * on that version (a concurrent refresh that wrote since makes it lose and read again).
 */
export function withIndexSourcesRead<T>(sources: IndexSourcesRead | undefined, write: () => Promise<T>): Promise<T> {
  return sources ? readAhead.run({ sources }, write) : write();
}

/**
 * The sources read ahead for the offer an answering update wrote, with that offer as answered in place of its read
 * copy; taken once. None when there are none, the answer is of another product's offer or projected (it then may
 * lack fields the entries show).
 */
function sourcesReadFor(query: Query<unknown, unknown>, answer: unknown): IndexSourcesRead | undefined {
  const held = readAhead.getStore();
  const offer = answeredDoc(query, answer) as OfferSource | undefined;
  if (!held?.sources || !offer?.product || isProjected(query)) return undefined;
  const { entry, offers } = held.sources;
  held.sources = undefined;
  if (!offer.product.equals(entry.product) || !offers.some((read) => read._id.equals(offer._id))) return undefined;
  return { entry, offers: offers.map((read) => (read._id.equals(offer._id) ? offer : read)) };
}

/** Whether the query answers only some fields (mongoose keeps `{}` for none given). */
function isProjected(query: Query<unknown, unknown>): boolean {
  return Object.keys(query.projection() ?? {}).length > 0;
}

/** From every source, or (after a write of offers' own fields) from the stored entries and the offers. */
type Refresh = 'full' | 'offers';

interface Written {
  docs: AffectedDoc[];
  before: AffectedDoc[];
  kind: Refresh;
  /** For an offers' refresh: the product's sources read ahead (`withIndexSourcesRead`). */
  read?: IndexSourcesRead;
}

async function refreshFor(connection: Connection, productsOf: ProductsOf, { docs, before, kind, read }: Written) {
  if (docs.length === 0 || quiet.getStore()) return;
  const products = await productsOf(connection, docs, before);
  const indexer = new StorefrontIndexer(connection);
  await (kind === 'offers' ? indexer.refreshOffers(products, read) : indexer.refresh(products));
}

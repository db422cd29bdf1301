import { createHash } from 'node:crypto';
import { Connection, mongo, PipelineStage, Types } from 'mongoose';
import { assignMissingSlugs } from './product-slug';
import {
  ALL_CURRENCIES,
  attributeIdsOf,
  EntryOffer,
  entriesOf,
  entryId,
  ProductSources,
  StorefrontEntry,
} from './storefront-entry';
import type {
  AttributeEntry,
  AttributeLabel,
  OfferSource,
  ProductSource,
  SellerSource,
  SkuSource,
} from './source-records';
import { sourcesFromEntry } from './storefront-entry-sources';
import { movedQuantities, quantityPatches, sameQuantities } from './storefront-quantities';

export const INDEX_COLLECTION = 'storefront_index';
export const FACET_COLLECTION = 'storefront_facets';
/**
 * Revisions of what the storefront shows beyond single entries: `LISTING_REVISION` is written after a refresh that
 * changed what a listing, a search or a filter shows of a product (`listingSignatureOf`), never after a change of an
 * offer's quantity alone that keeps it in stock; the storefront's result cache depends on it.
 */
export const REVISION_COLLECTION = 'storefront_revisions';
export const LISTING_REVISION = 'listing';
/** The collections the embedded database keeps commit counters for (the storefront's result cache reads them). */
export const COUNTED_COLLECTIONS = [INDEX_COLLECTION, FACET_COLLECTION, REVISION_COLLECTION];

/**
 * Products refreshed per round of source reads (each round reads four collections with `$in`). A round's entries go
 * in one bulk write, which holds the embedded database's single worker while it adds every entry's index keys (about
 * 1,450 a product, most in the five `search_*` indexes; `bench/storefront/index-memory.ts`): a write must stay well
 * inside the driver's server monitor time-out (30 s) on a machine at a load of 20 on two cores. 200 products a write
 * failed the seed under load, then 50 did at a load of 19-23 (27-28 Nov 2026); 10 is about 15,000 keys a write.
 */
const BATCH = 10;
/** Conditional writes lost to a concurrent refresh of the same product are retried this often, then reported. */
const MAX_ATTEMPTS = 20;

type Doc = mongo.BSON.Document;

/** What `refreshOffers` leaves out of the stored entry: recomputed, never read back (search words are most of it). */
const UNUSED_BY_DERIVATION = {
  terms: 0,
  searchKeys: 0,
  keyPrices: 0,
  priceKeys: 0,
  nameGrams: 0,
  attributeKeys: 0,
  cheapest: 0,
  inStockSkus: 0,
  card: 0,
};
/** The fields of an offer that its product's entries show (`OfferSource`). */
const OFFER_SOURCE_FIELDS = { product: 1, sku: 1, seller: 1, price: 1, currency: 1, quantity: 1, active: 1 };

/**
 * A product's all-currencies entry (as `refreshOffers` reads it) and its offers as stored, read by a caller in the
 * same read as the offer it is about to write (`indexSourcesLookups`), so that the write's refresh needs no read of
 * its own (see `withIndexSourcesRead` in `storefront-index.hooks.ts`).
 */
export interface IndexSourcesRead {
  entry: StorefrontEntry;
  offers: OfferSource[];
}

/**
 * The stages that add, to each document of an aggregate that has a `product` field, its product's all-currencies
 * entry (`storefrontEntry`, one or none) and then its offers (`storefrontOffers`): the entry is read first, so the
 * offers are at least as new as the version read (what `refreshOffers` relies on). Both through `product` indexes.
 */
export function indexSourcesLookups(): PipelineStage.Lookup[] {
  return [
    {
      $lookup: {
        from: INDEX_COLLECTION,
        localField: 'product',
        foreignField: 'product',
        as: 'storefrontEntry',
        pipeline: [{ $match: { scope: ALL_CURRENCIES } }, { $project: UNUSED_BY_DERIVATION }],
      },
    },
    {
      $lookup: {
        from: 'seller_skus',
        localField: 'product',
        foreignField: 'product',
        as: 'storefrontOffers',
        pipeline: [{ $project: OFFER_SOURCE_FIELDS }],
      },
    },
  ];
}

/** What `indexSourcesLookups` added to a document, taken out of it; undefined when the product has no entry. */
export function indexSourcesOf(doc: {
  storefrontEntry?: Doc[];
  storefrontOffers?: Doc[];
}): IndexSourcesRead | undefined {
  const [entry] = doc.storefrontEntry ?? [];
  if (!entry) return undefined;
  return { entry: entry as StorefrontEntry, offers: (doc.storefrontOffers ?? []) as OfferSource[] };
}

/** A filter counter: how many listed products have `value` for `facet`. */
export interface FacetCounter {
  _id: string;
  facet: string;
  value: string;
  count: number;
}

/**
 * Writes the storefront index: recomputes the entries of the given products from the catalogue collections and
 * replaces them, then moves the filter counters by the difference. Only these products' entries are touched.
 *
 * Concurrent refreshes of one product (two instances, two writes) are serialized by the all-currencies entry's
 * `version`: a replace is conditional on the version read, the loser re-reads the sources and tries again, so the
 * entry that stays is computed from sources read after the last write, and each counter moves once per version.
 * Entries per currency carry the version they were computed at and are only replaced by a newer one; one no longer
 * listed stays as an unlisted tombstone, so that a late, older writer cannot bring it back.
 */
export class StorefrontIndexer {
  constructor(private readonly connection: Connection) {}

  /** Refreshes the entries of `productIds` (any number, repeated ids once); unknown products lose their entries. */
  async refresh(productIds: Iterable<Types.ObjectId | string>): Promise<void> {
    const ids = uniqueIds(productIds);
    for (let start = 0; start < ids.length; start += BATCH) await this.refreshBatch(ids.slice(start, start + BATCH));
  }

  /**
   * Refreshes the entries of `productIds` after writes that changed their offers alone (stock, price, currency,
   * active; not which product, SKU or seller an offer is of): each product's entries are recomputed from its stored
   * all-currencies entry and its offers as stored now, read together in one aggregate (the entry first, then its
   * offers through the `product` index), and written as a full refresh writes them, conditionally on the version
   * read. A product whose entry cannot say (`sourcesFromEntry`), or whose write lost to a concurrent refresh, gets the
   * full refresh. What the stored entry holds besides offers may be older than the sources (another write's refresh
   * still under way): that refresh then either loses to this one's version and recomputes, or reads after it, so the
   * entry that stays is still computed from the latest sources; the offers are read after the version, so they are at
   * least as new as those of the entry replaced.
   */
  async refreshOffers(productIds: Iterable<Types.ObjectId | string>, read?: IndexSourcesRead): Promise<void> {
    const ids = uniqueIds(productIds);
    for (let start = 0; start < ids.length; start += BATCH)
      await this.refreshOffersBatch(ids.slice(start, start + BATCH), read);
  }

  /**
   * A product whose write lost is derived again from the entry that won, not recomputed from every source: under a
   * stream of stock writes on one product (checkouts racing with a seller's edits), the slower full refresh would keep
   * losing to the derived ones. One that finds the entry already showing the offers as they are has nothing to write.
   * `read` (the sources of a batch of one product, read by the caller) spares the first attempt its read.
   */
  private async refreshOffersBatch(ids: Types.ObjectId[], read?: IndexSourcesRead): Promise<void> {
    let pending = ids;
    let ahead = read && ids.length === 1 && ids[0].equals(read.entry.product) ? [read] : undefined;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > MAX_ATTEMPTS) throw new Error(`storefront index: ${pending.length} products kept changing`);
      const { changes, underived } = this.offerChanges(pending, ahead ?? (await this.entriesWithOffers(pending)));
      ahead = undefined;
      if (underived.length > 0) await this.refresh(underived);
      const written = await this.writeEntries(changes);
      await this.moveCounters(changes.slice(0, written));
      await this.renewListingIfShown(changes.slice(0, written));
      pending = changes.slice(written).map((change) => new Types.ObjectId(change.id));
    }
  }

  /**
   * The changes of the products whose entries can be recomputed from the entry and the offers (none for those whose
   * entry already shows the offers as they are), and the products whose entries cannot.
   */
  private offerChanges(
    ids: Types.ObjectId[],
    rows: IndexSourcesRead[],
  ): { changes: Change[]; underived: Types.ObjectId[] } {
    const derived = new Map(
      rows.flatMap(({ entry, offers }) => {
        const sources = sourcesFromEntry(entry, offers);
        return sources ? [[entry._id, derivedChange(entry, sources)] as const] : [];
      }),
    );
    const changes = [...derived.values()].filter((change): change is Change => change !== undefined);
    return { changes, underived: ids.filter((id) => !derived.has(String(id))) };
  }

  /** The stored all-currencies entries of `ids`, each with its product's offers as stored after it was read. */
  private async entriesWithOffers(ids: Types.ObjectId[]): Promise<IndexSourcesRead[]> {
    const rows = await this.index()
      .aggregate([
        { $match: { _id: { $in: ids.map(String) } } },
        { $project: UNUSED_BY_DERIVATION },
        {
          $lookup: {
            from: 'seller_skus',
            localField: 'product',
            foreignField: 'product',
            as: 'liveOffers',
            pipeline: [{ $project: OFFER_SOURCE_FIELDS }],
          },
        },
      ])
      .toArray();
    return rows.map((row) => {
      const { liveOffers, ...entry } = row as StorefrontEntry & { liveOffers: OfferSource[] };
      return { entry, offers: liveOffers };
    });
  }

  /**
   * One round of source reads for the batch, then one ordered bulk write of its entries and one of its counters,
   * rather than a few writes per product: each write is a round trip and a journal commit.
   */
  private async refreshBatch(ids: Types.ObjectId[]): Promise<void> {
    let pending = ids;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > MAX_ATTEMPTS) throw new Error(`storefront index: ${pending.length} products kept changing`);
      const [sources, current] = await Promise.all([this.sourcesOf(pending), this.currentEntries(pending)]);
      const changes = pending.flatMap((id) => changeOf(id, sources.get(String(id)), current.get(String(id))));
      const written = await this.writeEntries(changes);
      await this.moveCounters(changes.slice(0, written));
      await this.renewListingIfShown(changes.slice(0, written));
      pending = changes.slice(written).map((change) => new Types.ObjectId(change.id));
    }
  }

  /** The all-currencies entries of `ids` as stored (version, counters, currencies). */
  private async currentEntries(ids: Types.ObjectId[]): Promise<Map<string, StorefrontEntry>> {
    const found = await this.index()
      .find({ _id: { $in: ids.map(String) } } as Doc, {
        projection: { version: 1, facets: 1, currencies: 1, listingSignature: 1 },
      })
      .toArray();
    return new Map(found.map((entry) => [String(entry._id), entry as unknown as StorefrontEntry]));
  }

  /**
   * Writes each change's all-currencies entry (conditionally on the version read) and then its entries per currency,
   * in order, stopping at the first duplicate key; @returns how many changes (from the first) won, the rest being
   * retried. A duplicate key on an all-currencies entry means a concurrent refresh got there first (the upsert met
   * an entry at another version than read): that change lost. On an entry per currency it means a refresh of a newer
   * version wrote it: the change won, and its other entries per currency are that newer refresh's to write. A
   * deleted product keeps an unlisted tombstone: its versions go on counting if it comes back, so its older
   * per-currency entries stay older.
   */
  private async writeEntries(changes: Change[]): Promise<number> {
    const owners: { change: number; allCurrencies: boolean }[] = [];
    const writes = changes.flatMap((change, index) => {
      const own = writesOf(change);
      own.forEach((_write, at) => owners.push({ change: index, allCurrencies: at === 0 }));
      return own;
    });
    if (writes.length === 0) return 0;
    let outcome: { written: number; reached: number; result: mongo.BulkWriteResult };
    try {
      outcome = {
        written: changes.length,
        reached: writes.length,
        result: await this.index().bulkWrite(writes, { ordered: true }),
      };
    } catch (error) {
      const refused = duplicateKeyAt(error);
      const { change, allCurrencies } = owners[refused];
      const { result } = error as mongo.MongoBulkWriteError;
      outcome = { written: allCurrencies ? change : change + 1, reached: refused, result };
    }
    await this.refreshUnpatched(changes.slice(0, outcome.written), outcome);
    return outcome.written;
  }

  /**
   * Quantity patches (`quantityPatches`) that met an entry per currency at another version than read leave it as it
   * was, and the write then matched fewer entries than it reached (all its writes, or those before a duplicate key):
   * the patched products are then refreshed from every source, which writes their entries whole.
   */
  private async refreshUnpatched(
    written: Change[],
    { reached, result }: { reached: number; result: mongo.BulkWriteResult },
  ): Promise<void> {
    const patched = written.filter((change) => change.kind === 'quantities');
    if (patched.length === 0 || result.matchedCount + result.upsertedCount >= reached) return;
    await this.refresh(patched.map((change) => change.id));
  }

  /**
   * Moves the counters the products left (-1) and joined (+1), summed over the batch; never below what was counted.
   * A quantity change counts where it did.
   */
  private async moveCounters(changes: Change[]): Promise<void> {
    const moves = new Map<string, number>();
    const move = (key: string, by: number) => moves.set(key, (moves.get(key) ?? 0) + by);
    for (const change of changes) {
      if (change.kind === 'quantities') continue;
      const { entries, old } = change;
      const before = old?.facets ?? [];
      const after = entries[0].facets;
      before.filter((key) => !after.includes(key)).forEach((key) => move(key, -1));
      after.filter((key) => !before.includes(key)).forEach((key) => move(key, 1));
    }
    const writes = [...moves].filter(([, by]) => by !== 0).map(([key, by]) => counterUpdate(key, by));
    if (writes.length > 0) await this.facets().bulkWrite(writes, { ordered: false });
  }

  /**
   * Writes the listing revision (`LISTING_REVISION`) when a change shows differently in a listing, a search or a
   * filter than the entry it replaced (its `listingSignature`; a quantity patch shows as before): after the entries and
   * the counters, so that a cached result computed before it, from either, is dropped.
   */
  private async renewListingIfShown(changes: Change[]): Promise<void> {
    const shownDifferently = (change: Change) =>
      change.kind === 'whole' && change.signature !== change.old?.listingSignature;
    if (changes.some(shownDifferently)) await this.renewListing();
  }

  /** Writes the listing revision: every cached listing, search and filter is computed again. */
  async renewListing(): Promise<void> {
    await this.db()
      .collection(REVISION_COLLECTION)
      .updateOne({ _id: LISTING_REVISION } as Doc, { $inc: { count: 1 } }, { upsert: true });
  }

  /**
   * The catalogue records of `ids`: one query per collection, the offers with their sellers (`$lookup` on `_id`),
   * then the labels of the attributes they name.
   */
  private async sourcesOf(ids: Types.ObjectId[]) {
    const db = this.db();
    const [products, skus, offers] = await Promise.all([
      db
        .collection('products')
        .find({ _id: { $in: ids } })
        .toArray(),
      db
        .collection('skus')
        .find({ product: { $in: ids } })
        .toArray(),
      db
        .collection('seller_skus')
        .aggregate([
          { $match: { product: { $in: ids } } },
          { $lookup: { from: 'sellers', localField: 'seller', foreignField: '_id', as: 'sellerRecord' } },
        ])
        .toArray(),
    ]);
    await assignMissingSlugs(db.collection('products'), products);
    const sellers = offers.flatMap((offer) => offer.sellerRecord as SellerSource[]);
    const sellerById = new Map(sellers.map((seller) => [String(seller._id), seller]));
    const attributes = await this.labelsOf(
      attributeIdsOf([...products, ...skus] as { attributes?: AttributeEntry[] }[]),
    );
    const byProduct = (rows: Doc[]) => groupBy(rows, (row) => String(row.product));
    const skusOf = byProduct(skus);
    const offersOf = byProduct(offers);
    return new Map(
      products.map((product) => {
        const key = String(product._id);
        const entries = entriesOf({
          product: product as unknown as ProductSource,
          skus: (skusOf.get(key) ?? []) as unknown as SkuSource[],
          offers: (offersOf.get(key) ?? []) as unknown as OfferSource[],
          sellers: sellerById,
          attributes,
        });
        return [key, entries];
      }),
    );
  }

  /** The labels (name, type, unit) of the attributes `ids` by id; deleted ones are missing. */
  private async labelsOf(ids: Types.ObjectId[]): Promise<Map<string, AttributeLabel>> {
    const unique = [...new Set(ids.map(String))].map((id) => new Types.ObjectId(id));
    const labels = await this.db()
      .collection('attributes')
      .find({ _id: { $in: unique } }, { projection: { name: 1, type: 1, unit: 1 } })
      .toArray();
    return new Map(labels.map((label) => [String(label._id), label as unknown as AttributeLabel]));
  }

  private db(): mongo.Db {
    const db = this.connection.db;
    if (!db) throw new Error('storefront index: the database connection is not open');
    return db;
  }

  index(): mongo.Collection<Doc> {
    return this.db().collection(INDEX_COLLECTION);
  }

  facets(): mongo.Collection<Doc> {
    return this.db().collection(FACET_COLLECTION);
  }
}

/** A product's entries to write: computed now, replacing `old` (the stored all-currencies entry) at `version`. */
type Change = WholeChange | QuantityChange;

interface WholeChange {
  kind: 'whole';
  id: string;
  entries: StorefrontEntry[];
  old?: StorefrontEntry;
  version: number;
  /** The entries' `listingSignatureOf`, kept in the all-currencies entry. */
  signature: string;
}

/** Offers' quantities alone moved (`movedQuantities`): the entries are patched, and show in listings as before. */
interface QuantityChange {
  kind: 'quantities';
  id: string;
  /** The offers of the all-currencies entry now. */
  offers: EntryOffer[];
  old: StorefrontEntry;
  version: number;
}

function writesOf(change: Change): mongo.AnyBulkWriteOperation<Doc>[] {
  if (change.kind === 'quantities') return quantityPatches(change.old, change.offers, change.version);
  return [allCurrenciesWrite(change), ...perCurrencyWrites(change)];
}

/**
 * The change of a product's entries derived from its stored all-currencies entry `old` and `sources` (taken back out of
 * it, with its offers as stored now); none when the entry shows the offers as they are. Quantities that moved alone
 * patch the entries; anything else recomputes them whole.
 */
function derivedChange(old: StorefrontEntry, sources: ProductSources): Change | undefined {
  const version = old.version + 1;
  const moved = old.listingSignature ? movedQuantities(old, sources.offers) : undefined;
  if (moved) {
    if (sameQuantities(moved, old)) return undefined;
    return { kind: 'quantities', id: old._id, offers: moved, old, version };
  }
  const entries = entriesOf(sources);
  if (sameOffers(entries[0].offers, old.offers)) return undefined;
  return { kind: 'whole', id: old._id, entries, old, version, signature: signatureOf(entries) };
}

/** No write for a product that neither exists nor has entries; a deleted product's entry becomes a tombstone. */
function changeOf(
  id: Types.ObjectId,
  fresh: StorefrontEntry[] | undefined,
  old: StorefrontEntry | undefined,
): Change[] {
  if (!old && !fresh) return [];
  const entries = fresh ?? [tombstone(id, ALL_CURRENCIES)];
  const version = (old?.version ?? 0) + 1;
  return [{ kind: 'whole', id: String(id), entries, old, version, signature: signatureOf(entries) }];
}

/**
 * The write of a change's all-currencies entry, conditional on the version read (none: no entry yet). Always an
 * upsert replace, so that a batch's writes are all of one kind: an ordered bulk write sends each run of one kind as
 * its own command, and inserts between replaces would make it a round trip per product.
 */
function allCurrenciesWrite({
  entries: [fresh],
  old,
  version,
  signature,
}: WholeChange): mongo.AnyBulkWriteOperation<Doc> {
  const read = old ? old.version : { $exists: false };
  const replacement = { ...fresh, version, listingSignature: signature } as unknown as Doc;
  return { replaceOne: { filter: { _id: fresh._id, version: read } as Doc, replacement, upsert: true } };
}

/**
 * The writes of a change's entries per currency at its version, and tombstones for the currencies no longer listed;
 * an entry already at a newer version is left alone (the conditional upsert then hits its `_id`).
 */
function perCurrencyWrites({ id, entries, old, version }: WholeChange): mongo.AnyBulkWriteOperation<Doc>[] {
  const perCurrency = entries.slice(1);
  const gone = (old?.currencies ?? []).filter((currency) => !perCurrency.some((entry) => entry.scope === currency));
  const toWrite = [...perCurrency, ...gone.map((currency) => tombstone(new Types.ObjectId(id), currency))];
  return toWrite.map((entry): mongo.AnyBulkWriteOperation<Doc> => ({
    replaceOne: {
      filter: { _id: entry._id, version: { $lt: version } } as Doc,
      replacement: { ...entry, version },
      upsert: true,
    },
  }));
}

/** The position of the write an ordered bulk write stopped at with a duplicate key; any other error is thrown. */
function duplicateKeyAt(error: unknown): number {
  if (!(error instanceof mongo.MongoBulkWriteError)) throw error;
  const [first] = ([] as mongo.WriteError[]).concat(error.writeErrors);
  if (first?.code !== 11000) throw error;
  return first.index;
}

/** An entry that shows nothing: of a deleted product, or of a currency the product is no longer listed in. */
function tombstone(product: Types.ObjectId, scope: string): StorefrontEntry {
  return {
    _id: entryId(product, scope),
    product,
    scope,
    listed: false,
    published: false,
    facets: [],
    currencies: [],
  } as unknown as StorefrontEntry;
}

function counterUpdate(key: string, by: number): mongo.AnyBulkWriteOperation<Doc> {
  const at = key.indexOf('|');
  return {
    updateOne: {
      filter: { _id: key } as Doc,
      update: { $inc: { count: by }, $setOnInsert: { facet: key.slice(0, at), value: key.slice(at + 1) } },
      upsert: true,
    },
  };
}

/**
 * Whether two all-currencies entries show the same offers, field by field: the rest of an entry derived from a stored
 * one follows from its offers (`refreshOffers`), so the same offers mean the same entries.
 */
function sameOffers(fresh: EntryOffer[], stored: EntryOffer[]): boolean {
  return (
    fresh.length === stored.length &&
    fresh.every(
      (offer, at) =>
        offer.quantity === stored[at].quantity && shownBesidesQuantity(offer) === shownBesidesQuantity(stored[at]),
    )
  );
}

function shownBesidesQuantity({
  _id,
  sku,
  seller,
  sellerName,
  sellerCountry,
  price,
  currency,
  keys,
}: EntryOffer): string {
  return [_id, sku, seller, sellerName, sellerCountry, price, currency, keys.join('\n')].map(String).join('\t');
}

/**
 * What a product's entries show anywhere but in its own detail and its listed offer's quantity, as a digest: the
 * entries without their versions, each offer's quantity reduced to whether it is in stock. Entries whose signature
 * is unchanged list, order, count and match the product as before, so the listing revision is left alone.
 */
function signatureOf(entries: StorefrontEntry[]): string {
  const shown = entries.map(({ version: _version, listingSignature: _signature, offers, cheapest, ...rest }) => ({
    ...rest,
    offers: (offers ?? []).map(inStockOnly),
    cheapest: cheapest && inStockOnly(cheapest),
  }));
  return createHash('sha1').update(JSON.stringify(shown)).digest('base64');
}

function inStockOnly({ quantity, ...offer }: EntryOffer) {
  return { ...offer, inStock: quantity > 0 };
}

function uniqueIds(ids: Iterable<Types.ObjectId | string>): Types.ObjectId[] {
  return [...new Set([...ids].map(String))].map((id) => new Types.ObjectId(id));
}

function groupBy<T>(rows: T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

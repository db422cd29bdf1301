import { Connection, mongo, Types } from 'mongoose';
import { assignMissingSlugs } from './product-slug';
import {
  ALL_CURRENCIES,
  AttributeEntry,
  AttributeLabel,
  attributeIdsOf,
  entriesOf,
  OfferSource,
  ProductSource,
  SellerSource,
  SkuSource,
  StorefrontEntry,
} from './storefront-entry';

export const INDEX_COLLECTION = 'storefront_index';
export const FACET_COLLECTION = 'storefront_facets';

/** Products refreshed per round of source reads (each round reads four collections with `$in`). */
const BATCH = 200;
/** Conditional writes lost to a concurrent refresh of the same product are retried this often, then reported. */
const MAX_ATTEMPTS = 20;

type Doc = mongo.BSON.Document;

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
    const ids = [...new Set([...productIds].map(String))].map((id) => new Types.ObjectId(id));
    for (let start = 0; start < ids.length; start += BATCH) await this.refreshBatch(ids.slice(start, start + BATCH));
  }

  private async refreshBatch(ids: Types.ObjectId[]): Promise<void> {
    let pending = ids;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > MAX_ATTEMPTS) throw new Error(`storefront index: ${pending.length} products kept changing`);
      const [sources, current] = await Promise.all([this.sourcesOf(pending), this.currentEntries(pending)]);
      const lost = await Promise.all(
        pending.map((id) => this.replace(id, sources.get(String(id)), current.get(String(id)))),
      );
      pending = pending.filter((_id, index) => lost[index]);
    }
  }

  /** The all-currencies entries of `ids` as stored (version, counters, currencies). */
  private async currentEntries(ids: Types.ObjectId[]): Promise<Map<string, StorefrontEntry>> {
    const found = await this.index()
      .find({ _id: { $in: ids.map(String) } } as Doc, { projection: { version: 1, facets: 1, currencies: 1 } })
      .toArray();
    return new Map(found.map((entry) => [String(entry._id), entry as unknown as StorefrontEntry]));
  }

  /** Returns true when a concurrent refresh got there first (retry). */
  private async replace(id: Types.ObjectId, fresh: StorefrontEntry[] | undefined, old: StorefrontEntry | undefined) {
    if (!old && !fresh) return false;
    const entries = fresh ?? [tombstone(id, ALL_CURRENCIES)];
    if (!(await this.replaceAllCurrencies(entries[0], old))) return true;
    const version = (old?.version ?? 0) + 1;
    await this.replacePerCurrency(id, entries, old?.currencies ?? [], version);
    await this.moveCounters(old?.facets ?? [], entries[0].facets);
    return false;
  }

  /**
   * Inserts or replaces (conditionally on the version read) the all-currencies entry. A deleted product keeps an
   * unlisted tombstone: its versions go on counting if it comes back, so its older per-currency entries stay older.
   */
  private async replaceAllCurrencies(fresh: StorefrontEntry, old?: StorefrontEntry): Promise<boolean> {
    if (!old) {
      try {
        await this.index().insertOne({ ...fresh, version: 1 } as unknown as Doc);
        return true;
      } catch (error) {
        if ((error as { code?: number }).code === 11000) return false;
        throw error;
      }
    }
    const filter = { _id: fresh._id, version: old.version } as Doc;
    const replaced = await this.index().replaceOne(filter, { ...fresh, version: old.version + 1 });
    return replaced.matchedCount === 1;
  }

  /**
   * Writes the entries per currency computed at `version`, and tombstones those of currencies no longer listed.
   * An entry already written at a newer version is left alone (the conditional upsert then hits its `_id`).
   */
  private async replacePerCurrency(id: Types.ObjectId, fresh: StorefrontEntry[], before: string[], version: number) {
    const entries = fresh.slice(1);
    const gone = before.filter((currency) => !entries.some((entry) => entry.scope === currency));
    const tombstones = gone.map((currency) => tombstone(id, currency));
    await Promise.all(
      [...entries, ...tombstones].map(async (entry) => {
        try {
          await this.index().replaceOne(
            { _id: entry._id, version: { $lt: version } } as Doc,
            { ...entry, version },
            {
              upsert: true,
            },
          );
        } catch (error) {
          if ((error as { code?: number }).code !== 11000) throw error;
        }
      }),
    );
  }

  /** Moves the counters a product left (-1) and joined (+1); counters never go below what was counted. */
  private async moveCounters(before: string[], after: string[]): Promise<void> {
    const left = before.filter((key) => !after.includes(key)).map((key) => counterUpdate(key, -1));
    const joined = after.filter((key) => !before.includes(key)).map((key) => counterUpdate(key, 1));
    if (left.length + joined.length > 0) await this.facets().bulkWrite([...left, ...joined], { ordered: false });
  }

  /** The catalogue records of `ids`, read with one `$in` query per collection. */
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
        .find({ product: { $in: ids } })
        .toArray(),
    ]);
    await assignMissingSlugs(db.collection('products'), products);
    const [sellerById, attributes] = await Promise.all([
      this.sellersOf(offers),
      this.labelsOf(attributeIdsOf([...products, ...skus] as { attributes?: AttributeEntry[] }[])),
    ]);
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

  /** The sellers of `offers` by id (name and country). */
  private async sellersOf(offers: Doc[]): Promise<Map<string, SellerSource>> {
    const ids = [...new Set(offers.map((offer) => String(offer.seller)))].map((id) => new Types.ObjectId(id));
    const sellers = await this.db()
      .collection('sellers')
      .find({ _id: { $in: ids } }, { projection: { name: 1, country: 1 } })
      .toArray();
    return new Map(sellers.map((seller) => [String(seller._id), seller as unknown as SellerSource]));
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

/** An entry that shows nothing: of a deleted product, or of a currency the product is no longer listed in. */
function tombstone(product: Types.ObjectId, scope: string): StorefrontEntry {
  const _id = scope === ALL_CURRENCIES ? String(product) : `${String(product)}|${scope}`;
  return {
    _id,
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

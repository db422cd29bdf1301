import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection, mongo, Types } from 'mongoose';
import { ATTRIBUTES_REVISION, ATTRIBUTES_REVISION_FACET, AttributesRevision } from './attribute-revision';
import { ALL_CURRENCIES, EntryOffer, StorefrontEntry } from './storefront-entry';
import { FacetCounter, FACET_COLLECTION, INDEX_COLLECTION } from './storefront-indexer';

type Doc = mongo.BSON.Document;
export type EntryFilter = Record<string, unknown>;
export type EntrySort = Record<string, 1 | -1>;

/** What the products list filter shows of a listed product. */
export type ListedName = Pick<StorefrontEntry, '_id' | 'name' | 'inStockOffers'>;

/**
 * What a listing row shows of its entry: its card (`ListingCard`), the row's JSON text but for its offer (chosen
 * apart). The replies' size and the objects decoded from them were a large part of a listing's cost; top-level fields
 * only are the database's cheap projection.
 */
export const LISTING_FIELDS: Record<string, 1> = { card: 1 };
/**
 * What a row shows of an entry written before cards (`toListedProduct`), attribute labels included: read only for
 * such entries, until `npm run reindex` gives every entry its card.
 */
export const CARDLESS_LISTING_FIELDS: Record<string, 1> = {
  product: 1,
  slug: 1,
  name: 1,
  description: 1,
  images: 1,
  translations: 1,
  attributes: 1,
  attributeLabels: 1,
};
/**
 * What the counts of each facet narrowed to one SKU are computed from (`skuScopedFacets`): the product's own field for
 * its country and genetic type (top-level fields, the database's cheap projection), the SKU's offers for sellers, and
 * the attributes of the product and the offers for attribute facets.
 */
const SKU_SCOPE_FIELDS: Record<string, Record<string, 1>> = {
  origin: { countryOfOrigin: 1 },
  genetic: { geneticType: 1 },
  seller: { 'offers.sku': 1, 'offers.quantity': 1, 'offers.sellerCountry': 1 },
  attribute: { attributes: 1, 'offers.sku': 1, 'offers.quantity': 1, 'offers.keys': 1 },
};
/** The fields of `SKU_SCOPE_FIELDS` a facet's counts need: `value:<attribute id>` those of `attribute`. */
function skuScopeFields(facet: string): Record<string, 1> {
  return SKU_SCOPE_FIELDS[facet] ?? SKU_SCOPE_FIELDS.attribute;
}
/**
 * A page of listed entries matching `filter`, in `sort` order (an index order), or without one in the order of the
 * `hint`ed index (a one-value attribute filter sorted by price, `keyPriceFilter`: the order of the strings of
 * `listing_key_price`, in which every entry has one string in range; a sort on the multikey field would be a
 * blocking sort by each entry's least string). Each entry with only its cheapest in-stock offer (`cheapest`; a
 * listed entry has one), or with `allOffers` its offers (to pick from).
 */
export interface PageQuery {
  filter: EntryFilter;
  sort?: EntrySort;
  hint?: string;
  allOffers: boolean;
  skip: number;
  limit: number;
}

/** A page with a kept counter's count and the attributes' revision token (none before the first attribute write). */
export interface CountedPage {
  entries: StorefrontEntry[];
  count: number;
  revision?: string;
}

/** The card, and the cheapest in-stock offer or, to pick the row's offer (`rowsOf`), the offers and own attributes. */
function pageFields({ allOffers }: PageQuery): Record<string, number> {
  return { ...LISTING_FIELDS, ...(allOffers ? { offers: 1, attributes: 1 } : { cheapest: 1 }) };
}

export type SkuScopeEntry = Partial<Pick<StorefrontEntry, 'countryOfOrigin' | 'geneticType' | 'attributes'>> & {
  offers?: (Pick<EntryOffer, 'sku' | 'quantity'> & Partial<Pick<EntryOffer, 'sellerCountry' | 'keys'>>)[];
};

/**
 * The query of a read of the listed entries of `scope` matching `filter`. A filter on price keys (`priceKeys` at
 * its top, `price-keys.ts`) names the scope and the listed state itself: counted, or read in the newest order (that
 * of `listing_price_keys`), it is sent alone, so that its index is the only candidate. With `scope` and `listed`
 * beside it every `listing_*` index is one too, and the planner's trial may pick one that reads every entry of the
 * scope (`listing_price`, for a range starting at the cheapest prices, whose first entries all match). Sorted
 * otherwise, by name, the scope stays: `listing_name` gives that order.
 */
function listedQuery(scope: string, filter: EntryFilter, sort?: EntrySort): Doc {
  const byPriceKeys = filter.priceKeys !== undefined && (sort === undefined || sort.createdAt !== undefined);
  return byPriceKeys ? filter : { scope, listed: true, ...filter };
}

/**
 * A page's leading stages, which the database reads as a find (an index range in order, stopping after the page;
 * MongoDB pushes them down alike): `$match`, `$sort`, `$skip`, `$limit` and `$project`.
 */
export function pageStages(match: Doc, sort: EntrySort | undefined, skip: number, limit: number, fields: Doc): Doc[] {
  return [
    { $match: match },
    ...(sort ? [{ $sort: sort }] : []),
    ...(skip > 0 ? [{ $skip: skip }] : []),
    { $limit: limit },
    { $project: fields },
  ];
}

/** `pageStages` of a listing page of `scope`. */
function listingPageStages(scope: string, query: PageQuery): Doc[] {
  const { filter, sort, skip, limit } = query;
  return pageStages(listedQuery(scope, filter, sort), sort, skip, limit, pageFields(query));
}

/** The field of the one document a total's union adds (`totalUnion`); an entry always has an `_id`, a total none. */
const TOTAL_FIELD = 'total';

/**
 * A stage appending to a page the number of entries matching `query` as one document `{total: n}` (none for 0, as
 * `$count` gives): counted in the same command as the page, where a `count` command would be a second round trip (a
 * fifth of a listing's CPU). The embedded database counts a union of a `$match` and a `$count` as the `count` command
 * (index keys alone when the bounds are exact); MongoDB plans it as a count too.
 */
export function totalUnion(query: Doc): Doc {
  return { $unionWith: { coll: INDEX_COLLECTION, pipeline: [{ $match: query }, { $count: TOTAL_FIELD }] } };
}

/** The entries of a page read with `totalUnion`s, and their totals summed. */
export function splitTotal(found: Doc[]): { entries: StorefrontEntry[]; total: number } {
  const entries: StorefrontEntry[] = [];
  let total = 0;
  for (const doc of found) {
    if (doc._id === undefined) total += Number(doc[TOTAL_FIELD]);
    else entries.push(doc as StorefrontEntry);
  }
  return { entries, total };
}

/**
 * The storefront's read port on the storefront index (`StorefrontIndexer` writes it): every query is on an indexed
 * field of `storefront_index` or `storefront_facets` (see `storefront-index.schema.ts`), through the driver.
 */
@Injectable()
export class StorefrontReader {
  /** Scopes seen to keep price keys in every listed entry (`keepsPriceKeys`). */
  private readonly priceKeyScopes = new Set<string>();

  constructor(@InjectConnection() private readonly connection: Connection) {}

  /**
   * Whether every listed entry of `scope` keeps `priceKeys`: those written before the field have none until `npm run
   * reindex` (or their product's next write) and are found by a price range only through their offers. Looked up
   * (one entry at most, the `null` point of `listing_price_keys`) until the answer is yes, then remembered: only an
   * instance of an earlier version still writing entries could make it no again (run the reindex after the last one
   * stopped).
   */
  async keepsPriceKeys(scope: string): Promise<boolean> {
    if (this.priceKeyScopes.has(scope)) return true;
    const without = await this.entries().findOne({ scope, listed: true, priceKeys: { $exists: false } } as Doc, {
      projection: { _id: 1 },
    });
    if (without === null) this.priceKeyScopes.add(scope);
    return without === null;
  }

  /**
   * A page of listed entries of `scope` (see `PageQuery`) and the number of those matching each of `totals` (summed),
   * in one command: the page's stages (`listingPageStages`), each count appended by `totalUnion`. A count with a hint
   * must be sent apart (`count`): a union's pipeline takes none.
   */
  async pageWithTotal(
    scope: string,
    query: PageQuery,
    totals: EntryFilter[],
  ): Promise<{ entries: StorefrontEntry[]; total: number }> {
    const unions = totals.map((counted) => totalUnion(listedQuery(scope, counted)));
    return splitTotal(await this.aggregatePage(query, [...listingPageStages(scope, query), ...unions]));
  }

  /**
   * A page (see `PageQuery`) and the kept counter `key`'s count with the attributes' revision token (see
   * `countersWithRevision`), in one command (one round trip instead of two): the page's stages
   * (`listingPageStages`), then the counter and the revision appended by `$unionWith` (an `_id` read).
   */
  async countedPage(scope: string, query: PageQuery, key: string): Promise<CountedPage> {
    const counters = { $match: { _id: { $in: [key, ATTRIBUTES_REVISION] } } };
    const union = { $unionWith: { coll: FACET_COLLECTION, pipeline: [counters] } };
    const pipeline = [...listingPageStages(scope, query), union];
    type Found = StorefrontEntry & Partial<FacetCounter & AttributesRevision>;
    const found = (await this.aggregatePage(query, pipeline)) as unknown[] as Found[];
    // Entry ids are product ids (with a currency): never a counter's key.
    const counted = new Set([key, ATTRIBUTES_REVISION]);
    const token = found.find((doc) => doc._id === ATTRIBUTES_REVISION)?.token;
    return {
      entries: found.filter((doc) => !counted.has(doc._id)),
      count: found.find((doc) => doc._id === key)?.count ?? 0,
      revision: token && String(token),
    };
  }

  /** A kept counter's count (one `_id` read; see `facetKey`), 0 when there is none. */
  async counted(key: string): Promise<number> {
    const counter = await this.connection
      .collection<FacetCounter>(FACET_COLLECTION)
      .findOne({ _id: key }, { projection: { count: 1 } });
    return counter?.count ?? 0;
  }

  /**
   * How many listed entries of `scope` match `filter`. The `count` command rather than `countDocuments` (an
   * aggregate): a count whose index bounds are exact is then answered from the index keys, no entry read (unless
   * `hint`ed: the embedded database then reads each entry).
   */
  async count(scope: string, filter: EntryFilter, hint?: string): Promise<number> {
    const command = { count: INDEX_COLLECTION, query: listedQuery(scope, filter), ...(hint ? { hint } : {}) };
    const { n } = (await this.connection.db!.command(command)) as { n: number };
    return n;
  }

  /**
   * Every listed entry of `scope` matching `filter`, with only what choosing and ordering them needs (names, offers,
   * own attributes, dates, and the search words when `withTerms`): candidates that the caller checks and orders
   * itself, then reads in full for one page (`byIds`). Whole entries of every candidate made the replies the cost.
   */
  candidates(scope: string, filter: EntryFilter, withTerms: boolean): Promise<StorefrontEntry[]> {
    const fields = { product: 1, name: 1, 'translations.name': 1, createdAt: 1, offers: 1, attributes: 1 };
    return this.entries()
      .find({ scope, listed: true, ...filter } as Doc, {
        projection: { ...fields, ...(withTerms ? { terms: 1 } : {}) },
      })
      .toArray() as Promise<unknown[]> as Promise<StorefrontEntry[]>;
  }

  /** `fields` (the card; no offers) of the entries `ids`, in no particular order; none: no read. */
  async byIds(ids: string[], fields: Record<string, 1> = LISTING_FIELDS): Promise<StorefrontEntry[]> {
    // The embedded database scans the collection for an empty `$in` (MongoDB reads nothing).
    if (ids.length === 0) return [];
    return this.entries()
      .find({ _id: { $in: ids } } as Doc, { projection: fields })
      .toArray() as Promise<unknown[]> as Promise<StorefrontEntry[]>;
  }

  /**
   * Listed products (all currencies) in name order, `limit` of them after the first `skip`, each with only its name
   * and in-stock offer count. Without `grams` a range of the index `listing_name`, read in order and stopping after
   * the page; with them only the names having every one of those trigrams, through the index `name_grams_by_name`
   * (its range for the first trigram, in name order, also stopping after the page).
   */
  listedNames(grams: string[], skip: number, limit: number): Promise<ListedName[]> {
    // Only listed all-currencies entries carry `nameGrams`, so scope and listed are not tested on each candidate
    // (the embedded database evaluates the filter per fetched entry, which is most of this query's cost).
    const filter = grams.length > 0 ? { nameGrams: { $all: grams } } : { scope: ALL_CURRENCIES, listed: true };
    return this.entries()
      .find(filter as Doc, { projection: { name: 1, inStockOffers: 1 } })
      .sort({ name: 1, _id: 1 })
      .skip(skip)
      .limit(limit)
      .toArray() as Promise<unknown[]> as Promise<ListedName[]>;
  }

  /** Slug and last change of every listed product with a slug, in slug order (the sitemap's product pages). */
  listedSlugs(): Promise<Pick<StorefrontEntry, 'slug' | 'updatedAt'>[]> {
    return this.entries()
      .find({ scope: ALL_CURRENCIES, listed: true, slug: { $type: 'string' } } as Doc, {
        projection: { _id: 0, slug: 1, updatedAt: 1 },
      })
      .sort({ scope: 1, listed: 1, slug: 1 })
      .toArray() as Promise<unknown[]> as Promise<StorefrontEntry[]>;
  }

  /** The all-currencies entry of a product, whatever its state (its labels name its SKUs' attributes too). */
  entry(productId: Types.ObjectId): Promise<StorefrontEntry | null> {
    return this.entries().findOne({
      _id: String(productId),
    } as Doc) as Promise<unknown> as Promise<StorefrontEntry | null>;
  }

  /**
   * Listed products offering the SKU in stock (its product, a SKU belonging to one), with only what the counts of
   * `facet` are computed from (`SKU_SCOPE_FIELDS`): not its texts, search words or SKUs, which were most of each reply.
   */
  withSkuInStock(skuId: Types.ObjectId, facet: string): Promise<SkuScopeEntry[]> {
    return this.entries()
      .find({ inStockSkus: skuId } as Doc, { projection: skuScopeFields(facet) })
      .toArray() as Promise<unknown[]> as Promise<SkuScopeEntry[]>;
  }

  /**
   * The non-zero counters of one facet (`origin`, `seller`, `genetic`, `attribute`, `value:<attribute id>`). The
   * zeros (the few values no listed product has any more) are dropped here: a range on `count` in the query cost the
   * embedded database more than the zeros it saves sending.
   */
  async counters(facet: string): Promise<FacetCounter[]> {
    const counters = (await this.connection.collection(FACET_COLLECTION).find({ facet }).toArray()) as unknown[];
    return nonZero(counters as FacetCounter[]);
  }

  /**
   * The non-zero counters of one facet and, in the same query (one round trip), the attributes' revision token
   * (`attribute-revision.ts`; none before the first attribute write or rebuild): what an attribute filter checks its
   * attributes kept in memory against.
   */
  async countersWithRevision(facet: string): Promise<{ counters: FacetCounter[]; revision?: string }> {
    const found = (await this.connection
      .collection(FACET_COLLECTION)
      .find({ facet: { $in: [facet, ATTRIBUTES_REVISION_FACET] } })
      .toArray()) as unknown[] as (FacetCounter & Partial<AttributesRevision>)[];
    const revision = found.find((doc) => doc._id === ATTRIBUTES_REVISION)?.token;
    const counters = found.filter((doc) => doc.facet === facet);
    return { counters: nonZero(counters), revision: revision && String(revision) };
  }

  /** A page's aggregate, through the `hint`ed index if the query names one. */
  private aggregatePage(query: PageQuery, pipeline: Doc[]): Promise<Doc[]> {
    return this.entries()
      .aggregate(pipeline, query.hint ? { hint: query.hint } : {})
      .toArray();
  }

  private entries(): mongo.Collection<Doc> {
    return this.connection.collection(INDEX_COLLECTION);
  }
}

function nonZero(counters: FacetCounter[]): FacetCounter[] {
  return counters.filter((counter) => counter.count > 0);
}

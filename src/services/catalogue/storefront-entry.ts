import { Types } from 'mongoose';
import type {
  AttributeEntry,
  AttributeLabel,
  OfferSource,
  ProductSource,
  SellerSource,
  SkuSource,
  TranslationEntry,
} from './source-records';
import { ListingCard, listingCardOf } from './listing-card';
import { priceKeysOf } from './price-keys';
import { distinctWords, nameGramsOf, searchKeysOf } from './search-terms';

/** Scope of the entry answering for all currencies; other entries are scoped to one currency (`EUR`). */
export const ALL_CURRENCIES = '*';

/** An active offer as an entry holds it; `keys` are its SKU's attribute keys (`attributeKey`). */
export interface EntryOffer {
  _id: Types.ObjectId;
  sku: Types.ObjectId;
  seller: Types.ObjectId;
  sellerName: string;
  sellerCountry: string;
  price: number;
  currency: string;
  quantity: number;
  keys: string[];
}

/**
 * One document of `storefront_index`. `_id` is the product id for the all-currencies entry (scope `*`), which every
 * product has, and `<product id>|<currency>` for an entry per currency the product has an in-stock offer in.
 */
export interface StorefrontEntry {
  _id: string;
  product: Types.ObjectId;
  scope: string;
  /** Bumped by every write of the all-currencies entry: writes are conditional on the version read. */
  version: number;
  /**
   * All-currencies entry only: a digest of what the product's entries show in listings, searches and filters
   * (`signatureOf` in the indexer); a refresh that changes it writes the listing revision.
   */
  listingSignature?: string;
  published: boolean;
  /** Published with an active in-stock offer (in the scope's currency): shown in listings and filters. */
  listed: boolean;
  name: string;
  description: string;
  images: string[];
  translations: TranslationEntry[];
  slug: string | null;
  categories: string[];
  attributes: AttributeEntry[];
  geneticType: string | null;
  countryOfOrigin: string | null;
  createdAt: Date | null;
  /** The product's last change (the sitemap's `lastmod`). */
  updatedAt: Date | null;
  /** Active offers of the scope (in stock or not), cheapest first, then by id. */
  offers: EntryOffer[];
  /** The cheapest in-stock offer's price; null when none. */
  price: number | null;
  /** The cheapest in-stock offer (the first of `offers` in stock): a plain listing page reads only this one. */
  cheapest: EntryOffer | null;
  /**
   * Name, type and unit of the attributes the entry shows (the product's; in the all-currencies entry also its
   * SKUs'), so that a page or a detail needs no read of `attributes`; an attribute's write refreshes the entries
   * naming it (`attributeIds`). A deleted attribute has no label, and views leave its values out.
   */
  attributeLabels: AttributeLabel[];
  /**
   * What a listing shows of the product as JSON text (`listingCardOf`): a page reads this and the row's offer only.
   * Missing in entries written before cards (until `npm run reindex` or the product's next write) and in tombstones.
   */
  card?: ListingCard;
  /** `attributeKey`s of the product and of the SKUs of its in-stock offers in the scope. */
  attributeKeys: string[];
  /**
   * Per attribute key of `attributeKeys`, the price of the cheapest in-stock offer meeting it (the product has the
   * value, or the offer's SKU does), twice: in ascending and in descending order (`keyPriceOf`). Index
   * `listing_key_price` reads a one-value attribute filter's page sorted by price in that order.
   */
  keyPrices: string[];
  /**
   * When listed, the prices of the in-stock offers (of the scope) with their decimal buckets (`priceKeysOf`): index
   * `listing_price_keys` counts a price range's entries from its keys alone. Missing in entries written before it.
   */
  priceKeys?: string[];
  /** Search words of names and descriptions in every language. */
  terms: string[];
  /** When listed, the keys a search looks up (`searchKeysOf`: word prefixes, and names' words with their typo keys). */
  searchKeys: string[];
  /** All-currencies entry only: the product's SKUs. */
  skus: { _id: Types.ObjectId; code: string; name: string; attributes: AttributeEntry[] }[];
  /** All-currencies entry only: SKUs with an in-stock offer, when listed (the SKU scope of the filters). */
  inStockSkus: Types.ObjectId[];
  /** All-currencies entry only: the filter counters (`facetKey`) this product counts in, when listed. */
  facets: string[];
  /** All-currencies entry only, when listed: its in-stock offers (the products list filter's count). */
  inStockOffers: number;
  /** All-currencies entry only, when listed: the trigrams of the lower-case name (`nameGramsOf`, name search). */
  nameGrams: string[];
  /** All-currencies entry only: the currencies of the entries per currency written last. */
  currencies: string[];
  /** All-currencies entry only: every attribute the product and its SKUs name, existing or not (index `attribute_ids`). */
  attributeIds: Types.ObjectId[];
}

/** An attribute value as one string, for multikey equality: `<attribute id>=<value>`. */
export function attributeKey(attribute: Types.ObjectId | string, value: string): string {
  return `${String(attribute)}=${value}`;
}

/** The `_id` of a product's entry of `scope`: the product id for all currencies, else the id and the currency. */
export function entryId(product: Types.ObjectId, scope: string): string {
  return scope === ALL_CURRENCIES ? String(product) : `${String(product)}|${scope}`;
}

/**
 * A counter's key: `<facet>|<value>`; the filters' facets are `origin`, `seller`, `genetic`, `attribute`,
 * `value:<id>`; `listed` counts the listed products per scope (see `listedIn`).
 */
export function facetKey(facet: string, value: string): string {
  return `${facet}|${value}`;
}

/** The facet and value of a counter key; a facet has no `|`, a value may. */
export function splitFacetKey(key: string): { facet: string; value: string } {
  const at = key.indexOf('|');
  return { facet: key.slice(0, at), value: key.slice(at + 1) };
}

const byPriceThenId = (a: EntryOffer, b: EntryOffer) => a.price - b.price || String(a._id).localeCompare(String(b._id));

/** The catalogue records of one product, gathered for its entries. */
export interface ProductSources {
  product: ProductSource;
  skus: SkuSource[];
  offers: OfferSource[];
  sellers: Map<string, SellerSource>;
  /** The labels of the attributes the product and its SKUs name, by id; a deleted attribute is missing. */
  attributes: Map<string, AttributeLabel>;
}

/**
 * The entries of one product: the all-currencies one first, then one per currency of its in-stock offers when it is
 * listed. `version` is left 0: the writer sets it.
 */
export function entriesOf(sources: ProductSources): StorefrontEntry[] {
  const skus = new Map(sources.skus.map((sku) => [String(sku._id), sku]));
  const offers = sources.offers
    .filter((offer) => offer.active !== false)
    .map((offer) => entryOffer(offer, skus, sources.sellers))
    .sort(byPriceThenId);
  const shared = { search: searchFieldsOf(sources.product), card: listingCardOf(sources.product, sources.attributes) };
  const all = entryOf(sources.product, ALL_CURRENCIES, offers, sources.attributes, shared);
  all.skus = sources.skus.map(({ _id, code, name, attributes }) => ({ _id, code, name, attributes: attributes ?? [] }));
  all.attributeIds = uniqueIds(attributeIdsOf([sources.product, ...sources.skus]));
  all.attributeLabels = labelsOf(all.attributeIds, sources.attributes);
  if (all.listed) {
    const inStock = offers.filter((offer) => offer.quantity > 0);
    all.inStockSkus = uniqueIds(inStock.map((offer) => offer.sku));
    all.currencies = [...new Set(inStock.map((offer) => offer.currency))].sort();
    all.facets = [...facetsOf(all, inStock), ...listedIn(all.currencies)];
    all.inStockOffers = inStock.length;
    all.nameGrams = nameGramsOf(all.name);
  }
  const perCurrency = all.currencies.map((currency) =>
    entryOf(
      sources.product,
      currency,
      offers.filter((offer) => offer.currency === currency),
      sources.attributes,
      shared,
    ),
  );
  return [all, ...perCurrency];
}

function entryOffer(offer: OfferSource, skus: Map<string, SkuSource>, sellers: Map<string, SellerSource>): EntryOffer {
  const seller = sellers.get(String(offer.seller));
  const skuAttributes = skus.get(String(offer.sku))?.attributes ?? [];
  return {
    _id: offer._id,
    sku: offer.sku,
    seller: offer.seller,
    sellerName: seller?.name ?? '',
    sellerCountry: seller?.country ?? '',
    price: offer.price,
    currency: offer.currency,
    quantity: offer.quantity,
    keys: keysOf(skuAttributes),
  };
}

/** The ids of the attributes the records (products, SKUs) name. */
export function attributeIdsOf(records: { attributes?: AttributeEntry[] }[]): Types.ObjectId[] {
  return records.flatMap((record) => (record.attributes ?? []).map((entry) => entry.attribute));
}

/** The labels of the attributes `ids`, once each, of those that exist. */
function labelsOf(ids: Types.ObjectId[], labels: Map<string, AttributeLabel>): AttributeLabel[] {
  return uniqueIds(ids).flatMap((id) => {
    const label = labels.get(String(id));
    return label ? [{ _id: label._id, name: label.name, type: label.type, unit: label.unit ?? null }] : [];
  });
}

function entryOf(
  product: ProductSource,
  scope: string,
  offers: EntryOffer[],
  labels: Map<string, AttributeLabel>,
  { search, card }: SharedFields,
): StorefrontEntry {
  const inStock = offers.filter((offer) => offer.quantity > 0);
  const published = product.published === true;
  const translations = product.translations ?? [];
  const attributes = product.attributes ?? [];
  const listed = published && inStock.length > 0;
  return {
    _id: entryId(product._id, scope),
    product: product._id,
    scope,
    version: 0,
    published,
    listed,
    name: product.name,
    description: product.description ?? '',
    images: product.images ?? [],
    translations,
    slug: product.slug ?? null,
    categories: product.categories ?? [],
    attributes,
    geneticType: product.geneticType || null,
    countryOfOrigin: product.countryOfOrigin || null,
    createdAt: product.createdAt ?? null,
    updatedAt: product.updatedAt ?? null,
    offers,
    price: inStock[0]?.price ?? null,
    cheapest: inStock[0] ?? null,
    attributeLabels: labelsOf(
      attributes.map((entry) => entry.attribute),
      labels,
    ),
    card,
    attributeKeys: [...new Set([...keysOf(attributes), ...inStock.flatMap((offer) => offer.keys)])],
    keyPrices: keyPricesOf(product._id, keysOf(attributes), inStock),
    priceKeys: listed
      ? priceKeysOf(
          scope,
          inStock.map((offer) => offer.price),
        )
      : [],
    terms: search.terms,
    searchKeys: listed ? search.searchKeys() : [],
    skus: [],
    inStockSkus: [],
    facets: [],
    inStockOffers: 0,
    nameGrams: [],
    currencies: [],
    attributeIds: [],
  };
}

/**
 * Widest price `keyPriceOf` orders: prices are integer minor units up to 10^9 (the offer schema and DTO), far below
 * it; the ceiling stays an exact integer (below 2^53).
 */
const KEY_PRICE_DIGITS = 15;
const KEY_PRICE_CEILING = 10 ** KEY_PRICE_DIGITS - 1;

/**
 * A string whose order among the strings of one attribute key and direction is the price's (ascending) or its
 * reverse (descending): the direction, the key with its length (so that no other key's strings share the prefix,
 * whatever its characters), then the price zero-padded (or its complement). The descending one ends with the
 * product id's complement (`reversedId`), so that ties go by descending product id as in the other descending sorts
 * (`INDEX_SORTS`); the index's `_id` after it breaks the ascending one's. See `keyPriceRange`.
 */
export function keyPriceOf(direction: 1 | -1, key: string, price: number, product: Types.ObjectId): string {
  const clamped = Math.min(Math.max(price, 0), KEY_PRICE_CEILING);
  const ordered = String(direction === 1 ? clamped : KEY_PRICE_CEILING - clamped).padStart(KEY_PRICE_DIGITS, '0');
  return `${keyPricePrefix(direction, key)}${ordered}${direction === 1 ? '' : reversedId(product)}`;
}

/** The product id's hex digits each replaced by 15 less it: the ids' reverse order (all are 24 digits long). */
function reversedId(product: Types.ObjectId): string {
  return [...product.toHexString()].map((digit) => (15 - parseInt(digit, 16)).toString(16)).join('');
}

/** The bounds holding exactly the `keyPriceOf` strings of one key and direction. */
export function keyPriceRange(direction: 1 | -1, key: string): { $gte: string; $lt: string } {
  const prefix = keyPricePrefix(direction, key);
  // Every string of the range continues the prefix with a digit, and ':' follows '9'.
  return { $gte: prefix, $lt: `${prefix}:` };
}

function keyPricePrefix(direction: 1 | -1, key: string): string {
  return `${direction === 1 ? 'a' : 'd'}${key.length}:${key}|`;
}

/**
 * The `keyPrices` of an entry: each key of the product (met by every offer) and of its in-stock offers' SKUs with
 * the price of the first offer meeting it, `inStock` being cheapest first, as `rowsOf` picks a row's offer.
 */
function keyPricesOf(product: Types.ObjectId, ownKeys: string[], inStock: EntryOffer[]): string[] {
  const cheapest = new Map<string, number>();
  for (const offer of inStock) {
    for (const key of [...ownKeys, ...offer.keys]) if (!cheapest.has(key)) cheapest.set(key, offer.price);
  }
  return [...cheapest].flatMap(([key, price]) => [
    keyPriceOf(1, key, price, product),
    keyPriceOf(-1, key, price, product),
  ]);
}

/** What all of a product's entries hold alike, made once for them all. */
interface SharedFields {
  search: SearchFields;
  card: ListingCard;
}

/** A product's search words, the same in all its entries; its search keys made on first use, then shared. */
interface SearchFields {
  terms: string[];
  searchKeys: () => string[];
}

/**
 * The search words of the product's names and descriptions (`terms`, what relevance scores), and its search keys
 * (`searchKeysOf`), which entries keep only while listed: searches read listed entries only, and every key costs
 * index writes. Made once for all of a product's entries (all currencies, then each currency), not once per entry.
 */
function searchFieldsOf(product: ProductSource): SearchFields {
  const translations = product.translations ?? [];
  const names = [product.name, ...translations.map((t) => t.name)];
  const terms = distinctWords([...names, product.description, ...translations.map((t) => t.description)]);
  let keys: string[] | undefined;
  return { terms, searchKeys: () => (keys ??= searchKeysOf(distinctWords(names), terms)) };
}

/** Keys of the attribute values that count for filters: a value list may be empty. */
function keysOf(attributes: AttributeEntry[]): string[] {
  return attributes.flatMap((entry) => entry.values.map((value) => attributeKey(entry.attribute, value)));
}

/**
 * The listing totals a listed product counts in (facet `listed`): all currencies (`*`) and each currency it has an
 * in-stock offer in, so that a listing without conditions takes its total from one counter, not a count of entries.
 */
function listedIn(currencies: string[]): string[] {
  return [ALL_CURRENCIES, ...currencies].map((scope) => facetKey(LISTED_FACET, scope));
}

/** The counters a listing total is read from: `listed|<scope>`. */
export const LISTED_FACET = 'listed';

/**
 * The counters a listed product counts in, once each: its country of origin and genetic type, its in-stock offers'
 * seller countries, and each attribute with values (of the product and of the in-stock offers' SKUs) and each value.
 */
export function facetsOf(
  entry: Pick<StorefrontEntry, 'countryOfOrigin' | 'geneticType' | 'attributeKeys'>,
  inStock: Pick<EntryOffer, 'sellerCountry'>[],
): string[] {
  const keys = new Set<string>();
  if (entry.countryOfOrigin) keys.add(facetKey('origin', entry.countryOfOrigin));
  if (entry.geneticType) keys.add(facetKey('genetic', entry.geneticType));
  for (const offer of inStock) if (offer.sellerCountry) keys.add(facetKey('seller', offer.sellerCountry));
  for (const key of entry.attributeKeys) {
    const at = key.indexOf('=');
    const [attribute, value] = [key.slice(0, at), key.slice(at + 1)];
    keys.add(facetKey('attribute', attribute));
    if (value !== '') keys.add(facetKey(`value:${attribute}`, value));
  }
  return [...keys].sort();
}

function uniqueIds(ids: Types.ObjectId[]): Types.ObjectId[] {
  const seen = new Map(ids.map((id) => [String(id), id]));
  return [...seen.values()];
}

import { Types } from 'mongoose';
import {
  ALL_CURRENCIES,
  attributeKey,
  EntryOffer,
  facetKey,
  keyPriceRange,
  StorefrontEntry,
} from '../catalogue/storefront-entry';
import { EntryFilter, EntrySort } from '../catalogue/storefront-reader';
import { priceKeysWithin } from '../catalogue/price-keys';
import { searchKeysFor, TYPO_MIN_LENGTH, withinOneEdit, wordsOf } from '../catalogue/search-terms';
import { ListingSort } from './product-listing.dto';

/** An attribute filter with its id parsed: at least one of `values`. */
export interface AttributeCondition {
  attribute: Types.ObjectId;
  values: string[];
}

/** What a listing narrows by, validated. Prices are integer minor units of `currency`. */
export interface ListingCriteria {
  q?: string;
  conditions: AttributeCondition[];
  categories: string[];
  minPrice?: number;
  maxPrice?: number;
  currency?: string;
  sort?: ListingSort;
  page: number;
  size: number;
}

/** A listed entry with the offer it is shown with. */
export interface ListingRow {
  entry: StorefrontEntry;
  offer: EntryOffer;
  score: number;
}

/** Query words searched at most: more only widen the candidates without changing the best matches much. */
const MAX_QUERY_WORDS = 8;

/**
 * The index orders of the sorts; ties go by product id (`_id`, which begins with it), in the sort's direction: a
 * descending sort is its ascending one reversed, so one index read backwards answers both (no `*_desc` indexes).
 */
export const INDEX_SORTS: Record<ListingSort, EntrySort> = {
  price: { price: 1, _id: 1 },
  '-price': { price: -1, _id: -1 },
  name: { name: 1, _id: 1 },
  '-name': { name: -1, _id: -1 },
  newest: { createdAt: -1, _id: -1 },
};

/** The query words, folded like the index's words. */
export function queryWords(q: string | undefined): string[] {
  return [...new Set(wordsOf(q))].slice(0, MAX_QUERY_WORDS);
}

/**
 * The price keys (`price-keys.ts`) that a listing's price range looks up when both its bounds are given and
 * `keysKept` (every listed entry of the scope has them, `StorefrontReader.keepsPriceKeys`, asked only then).
 */
export async function pricePoints(
  criteria: ListingCriteria,
  scope: string,
  keysKept: () => Promise<boolean>,
): Promise<string[] | undefined> {
  if (criteria.minPrice === undefined || criteria.maxPrice === undefined) return undefined;
  const points = priceKeysWithin(scope, criteria.minPrice, criteria.maxPrice);
  return points && (await keysKept()) ? points : undefined;
}

/**
 * The filter on listed entries: categories, attribute conditions (the product or an in-stock offer's SKU has one of the
 * values: index `listing_attribute`), a price range (some in-stock offer within it: one of its `points` when given,
 * see `pricePoints`, else through the offers) and the query words (one of their search keys, `searchKeysFor`: a
 * word's prefix, or within one typo of a name's word). Values are compared as data, never as patterns.
 */
export function entryFilter(criteria: ListingCriteria, words: string[], points?: string[]): EntryFilter {
  const and: EntryFilter[] = criteria.conditions.map((condition) => ({
    attributeKeys: { $in: condition.values.map((value) => attributeKey(condition.attribute, value)) },
  }));
  if (criteria.categories.length > 0) and.push({ categories: { $in: criteria.categories } });
  if (hasPriceRange(criteria) && !points) {
    and.push({ offers: { $elemMatch: { quantity: { $gt: 0 }, price: priceRange(criteria) } } });
    // An in-stock offer at most maxPrice means the cheapest in-stock one (`price`) is too: a range of the
    // `listing_price` index, so only entries that can match are read.
    if (criteria.maxPrice !== undefined) and.push({ price: { $lte: criteria.maxPrice } });
  }
  if (words.length > 0) and.push({ searchKeys: { $in: [...new Set(words.flatMap(searchKeysFor))] } });
  // At the top, where `StorefrontReader` looks for it (see `listedQuery`).
  const byPriceKeys = points ? { priceKeys: { $in: points } } : {};
  return and.length === 0 ? byPriceKeys : { ...byPriceKeys, $and: and };
}

/**
 * How a listing is read. `cheapest`: no conditions at all and a sort of the index, each entry's cheapest in-stock
 * offer is its row's. `exact`: no query words, at most one attribute condition or price range, and a sort not by
 * price, so `entryFilter` is exactly the listing's membership and the sort's index orders the rows: a page is a
 * range of that index that stops after the page (the row's offer is then picked from the entry's offers).
 * `keyPrice`: one attribute condition with one value and a sort by price: the row's price is the entry's kept
 * price for that value (`keyPrices`), whose index orders the rows, so a page is again a range stopping after it.
 * Otherwise (`candidates`) every candidate is checked, ordered and sliced here: with two conditions one offer must
 * meet both, and a row's price is that of its offer meeting the conditions, which no index orders.
 */
export type ListingRead = 'cheapest' | 'exact' | 'keyPrice' | 'candidates';

export function listingRead(criteria: ListingCriteria, words: string[], sort: ListingSort | 'relevance'): ListingRead {
  if (words.length > 0 || sort === 'relevance') return 'candidates';
  const conditions = criteria.conditions.length + (hasPriceRange(criteria) ? 1 : 0);
  if (conditions === 0) return 'cheapest';
  if (conditions > 1) return 'candidates';
  if (sort !== 'price' && sort !== '-price') return 'exact';
  return oneValueKey(criteria) === undefined ? 'candidates' : 'keyPrice';
}

/** The attribute key of the only condition when it has one value and nothing else narrows by offer. */
function oneValueKey(criteria: ListingCriteria): string | undefined {
  if (criteria.conditions.length !== 1 || hasPriceRange(criteria)) return undefined;
  const [{ attribute, values }] = criteria.conditions;
  return new Set(values).size === 1 ? attributeKey(attribute, values[0]) : undefined;
}

/** The index whose order a `keyPrice` read's page is read in (hinted, with no sort). */
export const KEY_PRICE_INDEX = 'listing_key_price';

/**
 * The filter of a `keyPrice` read, sorted by `sort`: the entries' kept price strings of the condition's value in
 * that direction (one per entry, so an index range read in order; `$elemMatch` keeps both bounds on one string),
 * and the categories, checked on each entry read.
 */
export function keyPriceFilter(criteria: ListingCriteria, sort: 'price' | '-price'): EntryFilter {
  const range = keyPriceRange(sort === 'price' ? 1 : -1, oneValueKey(criteria)!);
  const categories = criteria.categories.length > 0 ? { categories: { $in: criteria.categories } } : {};
  return { keyPrices: { $elemMatch: range }, ...categories };
}

/**
 * The kept counter that is the total of a listing of all currencies narrowed by one attribute value alone (the
 * listed products having it, facet `value:<attribute id>`), if that is the listing's only condition.
 */
export function conditionCounter(criteria: ListingCriteria, scope: string): string | undefined {
  const key = oneValueKey(criteria);
  if (scope !== ALL_CURRENCIES || criteria.categories.length > 0 || criteria.q || key === undefined) return undefined;
  const [{ attribute, values }] = criteria.conditions;
  return values[0] === '' ? undefined : facetKey(`value:${String(attribute)}`, values[0]);
}

/** A count of a listing's total: its filter, and the index it is read through when the planner must not choose. */
export interface TotalPart {
  filter: EntryFilter;
  hint?: string;
}

/**
 * Counts that add up to the total of an `exact` or `cheapest` read. A price range looked up by its price
 * keys (`points`) is the filter itself: one count of the keys of `listing_price_keys`, each entry once. Otherwise it
 * splits in two: entries whose cheapest in-stock offer is within it (keys of `listing_price` counted, no entry read),
 * and entries cheaper than `minPrice` with another in-stock offer within it, read and checked through `listing_price`
 * (hinted: at 1000× the planner's trial took `listing_key_price`, bounded by the scope alone, and read every entry of
 * the scope, 1.8 s for `[500, 2000]`; a hinted count reads the entries, as this one does anyway).
 */
export function totalFilters(criteria: ListingCriteria, filter: EntryFilter, points?: string[]): TotalPart[] {
  if (points || !hasPriceRange(criteria) || criteria.conditions.length > 0 || criteria.q) return [{ filter }];
  const categories = criteria.categories.length > 0 ? [{ categories: { $in: criteria.categories } }] : [];
  const within = { $and: [...categories, { price: priceRange(criteria) }] };
  if (criteria.minPrice === undefined) return [{ filter: within }];
  const inStockWithin = { offers: { $elemMatch: { quantity: { $gt: 0 }, price: priceRange(criteria) } } };
  const cheaper = { $and: [...categories, { price: { $lt: criteria.minPrice } }, inStockWithin] };
  return [{ filter: within }, { filter: cheaper, hint: 'listing_price' }];
}

/**
 * The rows of candidate entries: each with its cheapest in-stock offer meeting the price range and the attribute
 * conditions (on the product or that offer's SKU), and its relevance to the query words; entries with no such
 * offer, or matching no word, are left out.
 */
export function rowsOf(entries: StorefrontEntry[], criteria: ListingCriteria, words: string[]): ListingRow[] {
  const rows: ListingRow[] = [];
  for (const entry of entries) {
    const own = new Set(entry.attributes.flatMap((a) => a.values.map((value) => attributeKey(a.attribute, value))));
    const offer = entry.offers.find((candidate) => offerMeets(own, candidate, criteria));
    const score = relevance(entry, words);
    if (offer && (words.length === 0 || score > 0)) rows.push({ entry, offer, score });
  }
  return rows;
}

/** In stock, within the price range, and each condition met by the product's own values or the offer's SKU's. */
function offerMeets(own: Set<string>, offer: EntryOffer, criteria: ListingCriteria): boolean {
  if (offer.quantity <= 0) return false;
  if (criteria.minPrice !== undefined && offer.price < criteria.minPrice) return false;
  if (criteria.maxPrice !== undefined && offer.price > criteria.maxPrice) return false;
  return criteria.conditions.every((condition) =>
    condition.values.some((value) => {
      const key = attributeKey(condition.attribute, value);
      return own.has(key) || offer.keys.includes(key);
    }),
  );
}

/**
 * Relevance to the query words, summed over the words; for each word its best match: a word of the name (base or
 * translated) 8, a prefix of one 4, a name's word within one typo 2, a word or prefix of a description 1.
 */
export function relevance(entry: StorefrontEntry, words: string[]): number {
  if (words.length === 0) return 0;
  const names = wordsOf([entry.name, ...entry.translations.map((t) => t.name)].join(' '));
  const other = entry.terms;
  return words.reduce((sum, word) => sum + wordScore(word, names, other), 0);
}

function wordScore(word: string, names: string[], other: string[]): number {
  if (names.includes(word)) return 8;
  if (names.some((name) => name.startsWith(word))) return 4;
  if (
    word.length >= TYPO_MIN_LENGTH &&
    names.some((name) => name.length >= TYPO_MIN_LENGTH && withinOneEdit(word, name))
  )
    return 2;
  return other.some((term) => term.startsWith(word)) ? 1 : 0;
}

/**
 * Orders rows as the listing's sort asks (relevance when there are query words and no sort, else by name), ties by
 * id as `INDEX_SORTS` has them.
 */
export function sortRows(rows: ListingRow[], sort: ListingSort | 'relevance'): ListingRow[] {
  const byId = (a: ListingRow, b: ListingRow) => compare(a.entry._id, b.entry._id);
  const orders: Record<ListingSort | 'relevance', (a: ListingRow, b: ListingRow) => number> = {
    price: (a, b) => a.offer.price - b.offer.price || byId(a, b),
    '-price': (a, b) => b.offer.price - a.offer.price || byId(b, a),
    name: (a, b) => compare(a.entry.name, b.entry.name) || byId(a, b),
    '-name': (a, b) => compare(b.entry.name, a.entry.name) || byId(b, a),
    newest: (a, b) => time(b.entry.createdAt) - time(a.entry.createdAt) || byId(b, a),
    relevance: (a, b) => b.score - a.score || byId(a, b),
  };
  return rows.sort(orders[sort]);
}

/** Binary (code unit) order, as the index orders strings. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function time(date: Date | null): number {
  return date ? new Date(date).getTime() : 0;
}

function hasPriceRange(criteria: ListingCriteria): boolean {
  return criteria.minPrice !== undefined || criteria.maxPrice !== undefined;
}

function priceRange(criteria: ListingCriteria): Record<string, number> {
  return {
    ...(criteria.minPrice !== undefined ? { $gte: criteria.minPrice } : {}),
    ...(criteria.maxPrice !== undefined ? { $lte: criteria.maxPrice } : {}),
  };
}

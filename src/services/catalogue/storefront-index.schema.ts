import { Schema } from 'mongoose';
import { FACET_COLLECTION, INDEX_COLLECTION } from './storefront-indexer';

/**
 * The storefront index's collections, registered as models only for their indexes (created at start-up like every
 * schema's): `StorefrontIndexer` writes them and the storefront reads them through the driver, the shape being
 * `StorefrontEntry` and `FacetCounter`. See the README, "Storefront index".
 */
export const STOREFRONT_ENTRY = 'StorefrontEntry';
export const STOREFRONT_FACET = 'StorefrontFacet';

export const StorefrontEntrySchema = new Schema(
  { _id: String },
  { collection: INDEX_COLLECTION, strict: false, versionKey: false, autoCreate: true },
);
// Listing pages: the scope (all currencies or one) and listed state, then each sort of `ListingSort` with the
// product id as tie-break, so a page is an index range read in order, stopping after the page. A descending sort
// (`-price`, `-name`) breaks ties by descending id (`INDEX_SORTS`): it is its ascending index read backwards.
const LISTED = { scope: 1, listed: 1 } as const;
StorefrontEntrySchema.index({ ...LISTED, price: 1, _id: 1 }, { name: 'listing_price' });
StorefrontEntrySchema.index({ ...LISTED, name: 1, _id: 1 }, { name: 'listing_name' });
StorefrontEntrySchema.index({ ...LISTED, createdAt: -1, _id: -1 }, { name: 'listing_newest' });
// Attribute filters: the listed entries of a scope having an attribute value (multikey), so a filtered listing reads
// only the entries that match a condition instead of every listed entry of its scope.
StorefrontEntrySchema.index({ ...LISTED, attributeKeys: 1 }, { name: 'listing_attribute' });
// A one-value attribute filter sorted by price: the entries having the value in the order of the price of their
// cheapest offer meeting it (`keyPrices`, multikey; the product id breaks ties), read with this index as a hint.
StorefrontEntrySchema.index({ ...LISTED, keyPrices: 1, _id: 1 }, { name: 'listing_key_price' });
// A price range: the listed entries having an in-stock price or a price bucket of a scope (`priceKeys`, multikey,
// see `price-keys.ts`; each key names its scope, and only listed entries have keys), so that the range's total is
// one count of the keys of its points, no entry read; then the newest order, so that a page sorted by newest merges
// the points' scans in that order (SORT_MERGE, as a search does) and reads only the entries it shows, stopping after
// the page.
StorefrontEntrySchema.index({ priceKeys: 1, createdAt: -1, _id: -1 }, { name: 'listing_price_keys' });
// Search: the listed entries of a scope having a search key (multikey, see `searchKeysOf`), then each sort of
// `ListingSort` as the listing indexes have it: a search reads one scan per key it looks up, merged in the sort's
// order (SORT_MERGE; backwards for `-price` and `-name`), and stops after the page; its total counts the keys alone.
// Each of these indexes repeats every search key of every listed entry: most of the index's keys.
const SEARCH = { ...LISTED, searchKeys: 1 } as const;
StorefrontEntrySchema.index({ ...SEARCH, price: 1, _id: 1 }, { name: 'search_price' });
StorefrontEntrySchema.index({ ...SEARCH, name: 1, _id: 1 }, { name: 'search_name' });
StorefrontEntrySchema.index({ ...SEARCH, createdAt: -1, _id: -1 }, { name: 'search_newest' });
// The products list filter's name search: the trigrams of listed names (multikey), then the name, so that one
// trigram's entries are read in name order and the read stops after the list (the sort is the index's for one value
// of a multikey field).
StorefrontEntrySchema.index({ nameGrams: 1, name: 1, _id: 1 }, { name: 'name_grams_by_name' });
// Filters narrowed to one SKU: the products offering it in stock.
StorefrontEntrySchema.index({ inStockSkus: 1 }, { name: 'sku_scope' });
// The sitemap's product pages: listed products by slug.
StorefrontEntrySchema.index({ ...LISTED, slug: 1 }, { name: 'listing_slug' });
// The products whose entries name an attribute (multikey), refreshed when the attribute changes.
StorefrontEntrySchema.index({ attributeIds: 1 }, { name: 'attribute_ids' });
// Entries of one product (all currencies and per currency), for the reindex's sweep.
StorefrontEntrySchema.index({ product: 1 }, { name: 'product' });

export const StorefrontFacetSchema = new Schema(
  { _id: String, facet: String, value: String, count: Number },
  { collection: FACET_COLLECTION, versionKey: false, autoCreate: true },
);
StorefrontFacetSchema.index({ facet: 1, count: 1 }, { name: 'facet_count' });

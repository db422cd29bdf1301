import { ProductSources, StorefrontEntry } from './storefront-entry';
import type { AttributeLabel, OfferSource, ProductSource, SellerSource, SkuSource } from './source-records';

/**
 * The sources of a product's entries taken back out of its stored all-currencies entry, with `offers` (the product's
 * offers as stored now) in place of the entry's: what a write that changed offers alone (stock, price, active) needs
 * to recompute the entries without reading the product, its SKUs, its sellers and its attributes again. The entry
 * keeps all of those as `entriesOf` used them: the product's content, its SKUs, each active offer's seller name and
 * country, and the labels of every attribute the product and its SKUs name.
 *
 * Undefined where the entry cannot say: a tombstone or an entry from before these fields, a product without a slug
 * yet (the full refresh gives it one), or an active offer of a seller or SKU the entry does not show (an offer
 * made, or reactivated, since). The caller then recomputes from every source.
 */
export function sourcesFromEntry(entry: StorefrontEntry, offers: OfferSource[]): ProductSources | undefined {
  if (!isComplete(entry)) return undefined;
  const sellers = sellersShownBy(entry);
  const skus: SkuSource[] = entry.skus.map((sku) => ({ ...sku, product: entry.product }));
  const skuIds = new Set(skus.map((sku) => String(sku._id)));
  const shown = (offer: OfferSource) => sellers.has(String(offer.seller)) && skuIds.has(String(offer.sku));
  if (!offers.every((offer) => offer.active === false || shown(offer))) return undefined;
  const attributes = new Map<string, AttributeLabel>(entry.attributeLabels.map((label) => [String(label._id), label]));
  return { product: productOf(entry), skus, offers, sellers, attributes };
}

function isComplete(entry: StorefrontEntry): boolean {
  const lists = [entry.skus, entry.offers, entry.attributeLabels, entry.attributeIds, entry.facets, entry.currencies];
  return lists.every(Array.isArray) && typeof entry.name === 'string' && typeof entry.slug === 'string';
}

function sellersShownBy(entry: StorefrontEntry): Map<string, SellerSource> {
  return new Map(
    entry.offers.map((offer) => [
      String(offer.seller),
      { _id: offer.seller, name: offer.sellerName, country: offer.sellerCountry },
    ]),
  );
}

/** The product as the entry holds it; a field the entry keeps as null was missing or empty in the product. */
function productOf(entry: StorefrontEntry): ProductSource {
  return {
    _id: entry.product,
    name: entry.name,
    description: entry.description,
    images: entry.images,
    categories: entry.categories,
    attributes: entry.attributes,
    geneticType: entry.geneticType ?? undefined,
    countryOfOrigin: entry.countryOfOrigin ?? undefined,
    published: entry.published,
    translations: entry.translations,
    slug: entry.slug ?? undefined,
    createdAt: entry.createdAt ?? undefined,
    updatedAt: entry.updatedAt ?? undefined,
  };
}

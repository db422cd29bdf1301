import { JsonText } from '../../bean';
import { AttributeView, attributeViews, cardText, contentLanguage } from '../catalogue/listing-card';
import { EntryOffer, StorefrontEntry } from '../catalogue/storefront-entry';
import type { AttributeLabel } from '../catalogue/source-records';

export type { AttributeView };

export interface CheapestOfferView {
  offerId: string;
  sellerId: string;
  sellerName: string;
  price: number;
  currency: string;
  quantity: number;
}

export interface ListedProduct {
  id: string;
  /** URL path segment of the product page. */
  slug: string | null;
  name: string;
  description: string;
  image: string | null;
  attributes: AttributeView[];
  cheapestOffer: CheapestOfferView;
}

export interface ProductListing {
  items: ListedProduct[];
  page: number;
  size: number;
  total: number;
}

export interface OfferView extends CheapestOfferView {
  sku: string;
  inStock: boolean;
}

export interface ProductDetail {
  id: string;
  slug: string | null;
  name: string;
  description: string;
  images: string[];
  attributes: AttributeView[];
  skus: { id: string; code: string; name: string; attributes: AttributeView[] }[];
  offers: OfferView[];
}

/** The name and description in `lang` (a translation of its primary subtag), else the base ones. */
export function contentIn(entry: StorefrontEntry, lang: string): { name: string; description: string } {
  const primary = contentLanguage(lang);
  const translation = entry.translations.find((t) => t.lang === primary);
  return translation
    ? { name: translation.name, description: translation.description || entry.description }
    : { name: entry.name, description: entry.description };
}

/**
 * A listing row's JSON: its entry's card (`ListingCard`) with the row's offer, the text `JSON.stringify` makes of
 * `toListedProduct`. An entry written before cards has none: undefined (the caller reads its fields and uses
 * `toListedProduct`).
 */
export function listedProductText(entry: Pick<StorefrontEntry, 'card'>, offer: EntryOffer, lang: string) {
  return entry.card && cardText(entry.card, JSON.stringify(cheapestOfferView(offer)), lang);
}

/**
 * A listing's JSON, `ProductListing` stringified, from its rows' JSON (`listedProductText`): the page's text is joined,
 * not parsed and stringified again.
 */
export function listingText(items: string[], page: number, size: number, total: number): JsonText<ProductListing> {
  return new JsonText(`{"items":[${items.join(',')}],"page":${page},"size":${size},"total":${total}}`);
}

/** A row as a listing shows it, from its entry's fields (see `listedProductText`). */
export function toListedProduct(entry: StorefrontEntry, offer: EntryOffer, lang: string): ListedProduct {
  const attributes = labelsById(entry);
  return {
    id: String(entry.product),
    slug: entry.slug,
    ...contentIn(entry, lang),
    image: entry.images[0] ?? null,
    attributes: attributeViews(entry.attributes, attributes),
    cheapestOffer: cheapestOfferView(offer),
  };
}

export function toProductDetail(entry: StorefrontEntry, lang: string): ProductDetail {
  const attributes = labelsById(entry);
  return {
    id: String(entry.product),
    slug: entry.slug,
    ...contentIn(entry, lang),
    images: entry.images,
    attributes: attributeViews(entry.attributes, attributes),
    skus: entry.skus.map((sku) => ({
      id: String(sku._id),
      code: sku.code,
      name: sku.name,
      attributes: attributeViews(sku.attributes, attributes),
    })),
    offers: entry.offers.map((offer) => ({
      ...cheapestOfferView(offer),
      sku: String(offer.sku),
      inStock: offer.quantity > 0,
    })),
  };
}

/** The entry's attribute labels by attribute id (an entry written before it kept labels has none). */
function labelsById(entry: StorefrontEntry): Map<string, AttributeLabel> {
  return new Map((entry.attributeLabels ?? []).map((label) => [String(label._id), label]));
}

function cheapestOfferView(offer: EntryOffer): CheapestOfferView {
  return {
    offerId: String(offer._id),
    sellerId: String(offer.seller),
    sellerName: offer.sellerName,
    price: offer.price,
    currency: offer.currency,
    quantity: offer.quantity,
  };
}

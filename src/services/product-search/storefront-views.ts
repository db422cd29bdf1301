import { AttributeEntry, AttributeLabel, EntryOffer, StorefrontEntry } from '../catalogue/storefront-entry';

/** An attribute of a product or SKU with what a storefront shows of it. */
export interface AttributeView {
  attributeId: string;
  name: string;
  type: string;
  unit: string | null;
  values: string[];
}

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
  const primary = lang.split('-')[0].toLowerCase();
  const translation = entry.translations.find((t) => t.lang === primary);
  return translation
    ? { name: translation.name, description: translation.description || entry.description }
    : { name: entry.name, description: entry.description };
}

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

/** The entries with their attribute's name, type and unit; entries of a deleted attribute are left out. */
function attributeViews(entries: AttributeEntry[], records: Map<string, AttributeLabel>): AttributeView[] {
  return entries.flatMap(({ attribute, values }) => {
    const record = records.get(String(attribute));
    if (!record) return [];
    return [
      { attributeId: String(attribute), name: record.name, type: record.type, unit: record.unit ?? null, values },
    ];
  });
}

import { AttributeCondition, AttributeRecordRow, DetailRow, ListingRow, OfferRow } from './storefront-pipelines';

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
  name: string;
  description: string;
  images: string[];
  attributes: AttributeView[];
  skus: { id: string; code: string; name: string; attributes: AttributeView[] }[];
  offers: OfferView[];
}

export function toListedProduct(row: ListingRow): ListedProduct {
  return {
    id: String(row._id),
    name: row.name,
    description: row.description ?? '',
    image: row.images?.[0] ?? null,
    attributes: attributeViews(row.attributes, row.attributeRecords),
    cheapestOffer: cheapestOfferView(row.offer),
  };
}

export function toProductDetail(row: DetailRow): ProductDetail {
  return {
    id: String(row._id),
    name: row.name,
    description: row.description ?? '',
    images: row.images ?? [],
    attributes: attributeViews(row.attributes, row.attributeRecords),
    skus: row.skus.map((sku) => ({
      id: String(sku._id),
      code: sku.code,
      name: sku.name,
      attributes: attributeViews(sku.attributes, row.attributeRecords),
    })),
    offers: row.offers.map((offer) => ({
      ...cheapestOfferView(offer),
      sku: String(offer.sku),
      inStock: offer.quantity > 0,
    })),
  };
}

function cheapestOfferView(offer: OfferRow): CheapestOfferView {
  return {
    offerId: String(offer._id),
    sellerId: String(offer.seller),
    sellerName: offer.sellerName ?? '',
    price: offer.price,
    currency: offer.currency,
    quantity: offer.quantity,
  };
}

/** The entries with their attribute's name, type and unit; entries of a deleted attribute are left out. */
function attributeViews(entries: AttributeCondition[] = [], records: AttributeRecordRow[]): AttributeView[] {
  const byId = new Map(records.map((record) => [String(record._id), record]));
  return entries.flatMap(({ attribute, values }) => {
    const record = byId.get(String(attribute));
    if (!record) return [];
    return [
      { attributeId: String(attribute), name: record.name, type: record.type, unit: record.unit ?? null, values },
    ];
  });
}

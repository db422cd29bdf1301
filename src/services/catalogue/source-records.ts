import { Types } from 'mongoose';

// The catalogue records a storefront index entry is computed from, as stored, and its attributes' labels: apart from
// `storefront-entry.ts`, so that the listing card (which the entry holds) names them without an import cycle.

export interface AttributeEntry {
  attribute: Types.ObjectId;
  values: string[];
}

export interface TranslationEntry {
  lang: string;
  name: string;
  description: string;
}

/** The catalogue records an entry is computed from, as stored. */
export interface ProductSource {
  _id: Types.ObjectId;
  name: string;
  description?: string;
  images?: string[];
  categories?: string[];
  attributes?: AttributeEntry[];
  geneticType?: string;
  countryOfOrigin?: string;
  published?: boolean;
  translations?: TranslationEntry[];
  slug?: string;
  createdAt?: Date;
  updatedAt?: Date;
}
export interface SkuSource {
  _id: Types.ObjectId;
  product: Types.ObjectId;
  code: string;
  name: string;
  attributes?: AttributeEntry[];
}
export interface OfferSource {
  _id: Types.ObjectId;
  product: Types.ObjectId;
  sku: Types.ObjectId;
  seller: Types.ObjectId;
  price: number;
  currency: string;
  quantity: number;
  active?: boolean;
}
export interface SellerSource {
  _id: Types.ObjectId;
  name: string;
  country: string;
}

/** What a view shows of an attribute besides its values: kept in the entries naming it (see `labelsOf`). */
export interface AttributeLabel {
  _id: Types.ObjectId;
  name: string;
  type: string;
  unit?: string | null;
}

import { Types } from 'mongoose';
import { SellerSku } from './seller-sku.schema';

export type StoredOffer = SellerSku & { _id: Types.ObjectId };

/** An offer as its seller (or an ADMIN) sees it, stock per warehouse included. */
export interface SellerOfferView {
  id: string;
  sellerId: string;
  skuId: string;
  productId: string;
  price: number;
  currency: string;
  active: boolean;
  /** Available to sell now. */
  quantity: number;
  /** Taken by orders that have not shipped, still on hand. */
  reserved: number;
  stockByWarehouse: { warehouseId: string; onHand: number }[];
}

/** What everyone may know of an offer: the `offer.changed` event on `/topic/catalogue`. */
export type PublicOfferView = Omit<SellerOfferView, 'reserved' | 'stockByWarehouse'>;

export interface SellerOfferPage {
  items: SellerOfferView[];
  total: number;
  page: number;
  limit: number;
}

export function toSellerOfferView(offer: StoredOffer): SellerOfferView {
  return {
    ...toPublicOfferView(offer),
    reserved: offer.reserved ?? 0,
    stockByWarehouse: (offer.stockByWarehouse ?? []).map(({ warehouse, onHand }) => ({
      warehouseId: String(warehouse),
      onHand,
    })),
  };
}

export function toPublicOfferView(offer: StoredOffer): PublicOfferView {
  return {
    id: String(offer._id),
    sellerId: String(offer.seller),
    skuId: String(offer.sku),
    productId: String(offer.product),
    price: offer.price,
    currency: offer.currency,
    active: offer.active !== false,
    quantity: offer.quantity,
  };
}

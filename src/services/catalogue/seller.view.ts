import { Seller } from './seller.schema';

/** A seller as anyone may see it (the managing user account stays private). */
export interface SellerView {
  id: string;
  name: string;
  country: string;
  profileId: string | null;
  shippingAddressIds: string[];
}

export function toSellerView(seller: Seller & { _id: unknown }): SellerView {
  return {
    id: String(seller._id),
    name: seller.name,
    country: seller.country,
    profileId: seller.profileId ?? null,
    shippingAddressIds: (seller.shippingAddresses ?? []).map(String),
  };
}

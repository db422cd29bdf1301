import { Address } from './address.schema';

export interface AddressView {
  id: string;
  houseNumber: string | null;
  street: string;
  city: string;
  postalCode: string;
  country: string;
  fallIntoObjects: string[];
}

export function toAddressView(address: Address & { _id: unknown }): AddressView {
  return {
    id: String(address._id),
    houseNumber: address.houseNumber ?? null,
    street: address.street,
    city: address.city,
    postalCode: address.postalCode,
    country: address.country,
    fallIntoObjects: address.fallIntoObjects ?? [],
  };
}

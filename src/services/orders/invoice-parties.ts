import { Injectable, NotFoundException } from '@nestjs/common';
import { ProfileDirectory, ProfileRecord } from '../../auth/profiles/profile-directory';
import { ProfileType } from '../../auth/profiles/profile-type';
import { SellerDirectory } from '../catalogue/seller-directory';
import type { InvoiceParty } from '../accounting/invoices';
import { ShippingAddress } from './order-parts.schema';
import { StoredOrder } from './order.view';

/**
 * Who a seller's documents to a buyer (invoice, credit note) name. The seller: its company profile
 * (`Seller.profileId`): legal name, address and VAT id, as they are when the document is issued; the order's
 * seller name and country while it has none. The buyer: their buyer profile's name, else the name on the shipping
 * address, else the account name, with the shipping address (the only address an order has) and e-mail.
 */
@Injectable()
export class InvoiceParties {
  constructor(
    private readonly sellers: SellerDirectory,
    private readonly profiles: ProfileDirectory,
  ) {}

  async seller(order: StoredOrder): Promise<InvoiceParty> {
    const vendor = order.embeddedVendor;
    const seller = await this.sellers.get(vendor.sellerId).catch(removedAsNull);
    const profileId = seller?.profileId ?? vendor.profileId;
    const company = profileId ? await this.profiles.findById(profileId) : null;
    if (!company) return { name: vendor.name, details: vendor.country ? [vendor.country] : [] };
    return { name: company.displayName, details: companyDetails(company) };
  }

  async buyer(order: StoredOrder): Promise<InvoiceParty> {
    const { embeddedBuyer: buyer, shippingAddress } = order;
    const profiles = await this.profiles.ofUser(buyer.userId);
    const person = profiles.find((profile) => profile.type === ProfileType.BUYER);
    const name = person?.displayName ?? shippingAddress?.name ?? buyer.username;
    const details = [...(shippingAddress ? addressLines(shippingAddress) : []), ...(buyer.email ? [buyer.email] : [])];
    return { name, details };
  }
}

/** A seller removed since the order (404) is named as the order recorded it; any other failure stays one. */
function removedAsNull(error: unknown): null {
  if (error instanceof NotFoundException) return null;
  throw error;
}

function companyDetails(company: ProfileRecord): string[] {
  const { street, postalCode } = company.contacts ?? {};
  const city = [postalCode, company.city].filter(Boolean).join(' ');
  return [street, city, company.country, company.taxId ? `VAT ID ${company.taxId}` : undefined].filter(
    (line): line is string => Boolean(line),
  );
}

/** Street and house number, postal code and city, country, and the pickup point if any: one line each. */
export function addressLines(address: ShippingAddress): string[] {
  const street = [address.street, address.houseNumber].filter(Boolean).join(' ');
  const city = [address.postalCode, address.city].filter(Boolean).join(' ');
  const pickupPoint = address.pickupPointId ? `Pickup point ${address.pickupPointId}` : '';
  return [street, city, address.country ?? '', pickupPoint].filter(Boolean);
}

import { ProfileRecord } from '../../auth/profiles/profile-directory';

/** The seller's company as invoices print it. */
export interface CompanyProfileView {
  sellerId: string;
  profileId: string;
  companyName: string;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
  vatId: string | null;
  email: string | null;
}

export function toCompanyProfileView(sellerId: string, profile: ProfileRecord): CompanyProfileView {
  const { contacts = {} } = profile;
  return {
    sellerId,
    profileId: String(profile._id),
    companyName: profile.displayName,
    street: contacts.street ?? null,
    postalCode: contacts.postalCode ?? null,
    city: profile.city ?? null,
    country: profile.country ?? null,
    vatId: profile.taxId ?? null,
    email: contacts.email ?? null,
  };
}

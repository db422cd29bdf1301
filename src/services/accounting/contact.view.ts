import { AccountingContact } from './contact.schema';

/** `Contact` as the accounting beans return it. */
export interface Contact {
  id: string;
  userId: string | null;
  profileId: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  address: { street: string | null; postalCode: string | null; city: string | null; country: string | null };
  taxId: string | null;
  updatedAt: Date | null;
}

export type StoredContact = AccountingContact & { _id: unknown };

export function toContact(contact: StoredContact): Contact {
  return {
    id: String(contact._id),
    userId: contact.userId ?? null,
    profileId: contact.profileId ?? null,
    name: contact.name,
    email: contact.email ?? null,
    phone: contact.phone ?? null,
    address: {
      street: contact.street ?? null,
      postalCode: contact.postalCode ?? null,
      city: contact.city ?? null,
      country: contact.country ?? null,
    },
    taxId: contact.taxId ?? null,
    updatedAt: contact.updatedAt ?? null,
  };
}

/** The contact's address and identifiers as invoice lines. */
export function contactDetails(contact: Contact): string[] {
  const { street, postalCode, city, country } = contact.address;
  const place = [postalCode, city, country].filter(Boolean).join(' ');
  const lines = [street, place, contact.email, contact.taxId ? `Tax id: ${contact.taxId}` : null];
  return lines.filter((line): line is string => Boolean(line));
}

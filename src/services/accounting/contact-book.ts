import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, Model } from 'mongoose';
import { ProfileDirectory, ProfileRecord } from '../../auth/profiles/profile-directory';
import { ProfileType } from '../../auth/profiles/profile-type';
import { UserAccounts } from '../../auth/users/user-accounts';
import { Principal } from '../../common/principal';
import { AccountingContact } from './contact.schema';
import { Contact, StoredContact, toContact } from './contact.view';

/** Which of a user's profiles bills: a company before a seller before a buyer. */
const BILLING_ORDER = [ProfileType.COMPANY, ProfileType.SELLER, ProfileType.BUYER];

/** Accounting contacts, kept up to date from profiles (or accounts without one). */
@Injectable()
export class ContactBook {
  constructor(
    @InjectModel(AccountingContact.name) private readonly contacts: Model<AccountingContact>,
    private readonly profiles: ProfileDirectory,
    private readonly users: UserAccounts,
  ) {}

  get model(): Model<AccountingContact> {
    return this.contacts;
  }

  /** @throws NotFoundException for a malformed or unknown id */
  async retrieve(id: string): Promise<Contact> {
    const contact = isValidObjectId(id) ? await this.contacts.findById(String(id)).lean<StoredContact>().exec() : null;
    if (!contact) throw new NotFoundException(`Contact ${id} not found`);
    return toContact(contact);
  }

  /** @throws NotFoundException for a malformed or unknown id */
  async profile(profileId: string): Promise<ProfileRecord> {
    const profile = await this.profiles.findById(profileId);
    if (!profile) throw new NotFoundException(`Profile ${profileId} not found`);
    return profile;
  }

  /** The logged-in user's contact, from their billing profile, else from their account. */
  async ofPrincipal(principal: Principal): Promise<Contact> {
    const owned = await this.profiles.ofUser(principal.id);
    const profile = owned.sort((a, b) => BILLING_ORDER.indexOf(a.type) - BILLING_ORDER.indexOf(b.type))[0];
    if (profile) return this.fromProfile(profile);
    const user = await this.users.findByUsername(principal.username);
    return this.save(`user:${principal.id}`, { userId: principal.id, name: principal.username, email: user?.email });
  }

  /** The contact of a profile, created or refreshed from it. */
  fromProfile(profile: ProfileRecord): Promise<Contact> {
    const { contacts = {}, displayName, city, country, taxId, userId } = profile;
    return this.save(`profile:${String(profile._id)}`, {
      profileId: String(profile._id),
      userId: userId ? String(userId) : undefined,
      name: displayName,
      email: contacts.email,
      phone: contacts.phone,
      street: contacts.street,
      postalCode: contacts.postalCode,
      city,
      country,
      taxId,
    });
  }

  /** Sets the given fields and clears those given as `undefined` (a detail removed from the profile). */
  private async save(ownerKey: string, fields: Partial<AccountingContact>): Promise<Contact> {
    const entries = Object.entries(fields);
    const $set = Object.fromEntries(entries.filter(([, value]) => value !== undefined));
    const $unset = Object.fromEntries(entries.filter(([, value]) => value === undefined).map(([key]) => [key, 1]));
    const contact = await this.contacts
      .findOneAndUpdate({ ownerKey }, { $set, $unset }, { upsert: true, returnDocument: 'after' })
      .lean<StoredContact>()
      .exec();
    return toContact(contact);
  }
}

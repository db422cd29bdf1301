import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Profile, ProfileType } from '../../../src/auth/profiles/profile.schema';
import { Seller } from '../../../src/services/catalogue/seller.schema';
import { TestApp } from '../../support/test-app';

export interface ProfileOptions {
  userId?: string;
  type?: ProfileType;
  displayName?: string;
}

const model = <T>(t: TestApp, name: string): Model<T> => t.app.get<Model<T>>(getModelToken(name));

/** A profile with full contact details, as identity stores it. */
export async function createProfile(t: TestApp, options: ProfileOptions = {}): Promise<string> {
  const profile = await model<Profile>(t, Profile.name).create({
    userId: options.userId,
    type: options.type ?? ProfileType.SELLER,
    displayName: options.displayName ?? 'Fern & Moss Nursery',
    country: 'NL',
    city: 'Utrecht',
    taxId: 'NL123456789B01',
    contacts: {
      email: 'billing@fernmoss.example',
      phone: '+31 30 123 4567',
      street: 'Oudegracht 1',
      postalCode: '3511 AA',
    },
  });
  return String(profile._id);
}

/** Links a seller to its profile, so orders placed from now on embed it. */
export async function linkSellerProfile(t: TestApp, sellerId: string, profileId: string): Promise<void> {
  await model<Seller>(t, Seller.name).updateOne({ _id: sellerId }, { $set: { profileId } }).exec();
}

export async function updateProfile(t: TestApp, profileId: string, set: Record<string, unknown>): Promise<void> {
  await model<Profile>(t, Profile.name).updateOne({ _id: profileId }, { $set: set }).exec();
}

import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, Model, Types } from 'mongoose';
import { runSearch, runSearchWindow, SearchPlan } from '../../common/search';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import { ProfileType } from './profile-type';
import { Profile } from './profile.schema';
import { PUBLIC_PROFILE_PROJECTION, PublicProfile, toPublicProfile } from './public-profile.view';

const OBJECT_ID_HEX = /^[0-9a-f]{24}$/;

/** A profile as stored, private fields included: for the modules that bill or onboard its owner. */
export type ProfileRecord = Profile & { _id: Types.ObjectId };

/** A company's identity as invoices print it: legal name, address and VAT id. */
export interface CompanyIdentity {
  legalName: string;
  street: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2 code. */
  country: string;
  taxId: string;
  email?: string;
}

/** How many profiles share one value of the grouping field. */
export interface ProfileCount {
  _id: string;
  count: number;
}

/** The profiles' port: what other modules read of profiles (they own no copy of the model). */
@Injectable()
export class ProfileDirectory {
  constructor(@InjectModel(Profile.name) private readonly profiles: Model<Profile>) {}

  /** Null for a malformed or unknown id. */
  async findById(profileId: string): Promise<ProfileRecord | null> {
    if (!isValidObjectId(profileId)) return null;
    return this.profiles.findById(String(profileId)).lean<ProfileRecord>().exec();
  }

  /** Creates the company profile of a user (seller onboarding); its id. */
  async createCompany(userId: string, company: CompanyIdentity): Promise<string> {
    const created = await this.profiles.create({ userId, type: ProfileType.COMPANY, ...companyFields(company) });
    return String(created._id);
  }

  /** Replaces a company profile's identity; false when there is no such company profile. */
  async updateCompany(profileId: string, company: CompanyIdentity): Promise<boolean> {
    if (!isValidObjectId(profileId)) return false;
    const { matchedCount } = await this.profiles
      .updateOne({ _id: profileId, type: ProfileType.COMPANY }, { $set: flatten(companyFields(company)) })
      .exec();
    return matchedCount === 1;
  }

  /**
   * The user's profiles, seller and company profiles before buyers' (none for a malformed id). `userId` is an
   * ObjectId, but raw writers (`/request/document`, older data) may have stored the id as text: both forms are
   * matched, on the driver's collection because mongoose would cast the text form to an ObjectId too.
   */
  async ofUser(userId: string): Promise<ProfileRecord[]> {
    if (typeof userId !== 'string' || !OBJECT_ID_HEX.test(userId)) return [];
    const either = { userId: { $in: [new Types.ObjectId(userId), userId] } };
    return this.profiles.collection.find<ProfileRecord>(either).sort({ type: -1, _id: 1 }).toArray();
  }

  /** Public fields of the profiles a search plan matches, with the total of matches. */
  async searchPublic(plan: SearchPlan): Promise<{ content: PublicProfile[]; total: number }> {
    const { content, total } = await runSearch<ProfileRecord>(this.profiles, plan, PUBLIC_PROFILE_PROJECTION);
    return { content: content.map(toPublicProfile), total };
  }

  /** Public fields of the window of profiles a search plan matches. */
  async searchPublicWindow(plan: SearchPlan): Promise<PublicProfile[]> {
    return (await runSearchWindow<ProfileRecord>(this.profiles, plan, PUBLIC_PROFILE_PROJECTION)).map(toPublicProfile);
  }

  /** The collection's name and its (estimated) number of profiles. */
  async size(): Promise<{ collection: string; count: number }> {
    return { collection: this.profiles.collection.collectionName, count: await this.profiles.estimatedDocumentCount() };
  }

  /** Loads fixed profiles (demo data); those whose id is there already are left as they are. */
  insertMissing(records: FixedRecord[]): Promise<void> {
    return insertMissing(this.profiles, records);
  }

  /** Profiles of the types counted per `groupBy` (an aggregation expression such as `'$type'`), by that value. */
  countBy(types: readonly ProfileType[], groupBy: unknown): Promise<ProfileCount[]> {
    return this.profiles
      .aggregate<ProfileCount>([
        { $match: { type: { $in: types } } },
        { $group: { _id: groupBy, count: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ])
      .exec();
  }
}

function companyFields({ legalName, street, postalCode, city, country, taxId, email }: CompanyIdentity) {
  return { displayName: legalName, city, country, taxId, contacts: { street, postalCode, email } };
}

/** `contacts.street` etc., so that an update keeps the contacts it does not name (phone). */
function flatten({ contacts, ...rest }: ReturnType<typeof companyFields>): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...rest };
  for (const [key, value] of Object.entries(contacts)) if (value !== undefined) fields[`contacts.${key}`] = value;
  return fields;
}

import { Types } from 'mongoose';
import { Profile, ProfileType } from './profile.schema';

/** What anyone may see of a profile: no owner, contacts (e-mail, phone, address) or tax id. */
export interface PublicProfile {
  id: string;
  type: ProfileType;
  displayName: string;
  country?: string;
  city?: string;
  about?: string;
  website?: string;
  avatarUrl?: string;
}

/** The `$project` stage that keeps only public fields; the view below copies the same fields once more. */
export const PUBLIC_PROFILE_PROJECTION: Record<string, 0 | 1> = {
  _id: 1,
  type: 1,
  displayName: 1,
  country: 1,
  city: 1,
  about: 1,
  website: 1,
  avatarUrl: 1,
};

/** Copies public fields by name, so a field added to the schema later stays private until listed here. */
export function toPublicProfile(profile: Profile & { _id: Types.ObjectId }): PublicProfile {
  const { _id, type, displayName, country, city, about, website, avatarUrl } = profile;
  return { id: String(_id), type, displayName, country, city, about, website, avatarUrl };
}

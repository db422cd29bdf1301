import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes, Types } from 'mongoose';
import { ProfileType } from './profile-type';

export { ProfileType };

/** How to reach the owner of a profile; private: never returned by profile search. */
@Schema({ _id: false })
export class ProfileContacts {
  @Prop() email?: string;
  @Prop() phone?: string;
  @Prop() street?: string;
  @Prop() postalCode?: string;
}

/**
 * The public face of a buyer, seller or company. Public fields are those of `PublicProfile`
 * (`public-profile.view.ts`); everything else (owner, contacts, tax id) is private.
 */
@Schema({ collection: 'profiles', timestamps: true })
export class Profile {
  /**
   * The owner's account. `SchemaTypes.ObjectId`, not the `Types.ObjectId` class, which mongoose takes for an untyped
   * (Mixed) path: ids were then stored as given and looked up uncast. Ids stored as text before (or by raw writers)
   * are still found: see `ProfileDirectory.ofUser`.
   */
  @Prop({ type: SchemaTypes.ObjectId, ref: 'User', index: true })
  userId?: Types.ObjectId;

  @Prop({ type: String, enum: Object.values(ProfileType), required: true })
  type!: ProfileType;

  @Prop({ required: true, trim: true })
  displayName!: string;

  /** ISO 3166-1 alpha-2 code. */
  @Prop({ uppercase: true, trim: true })
  country?: string;

  @Prop() city?: string;
  @Prop() about?: string;
  @Prop() website?: string;
  @Prop() avatarUrl?: string;

  @Prop({ type: ProfileContacts, default: {} })
  contacts!: ProfileContacts;

  @Prop() taxId?: string;
}

export type ProfileDocument = HydratedDocument<Profile>;
export const ProfileSchema = SchemaFactory.createForClass(Profile);
/** Profile searches by type (`searchProfiles`, companies in analytics), in their default order. */
ProfileSchema.index({ type: 1, displayName: 1 });

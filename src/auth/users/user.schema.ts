import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';
import { Role } from '../../common/principal';

/** An account. Usernames and e-mail addresses are stored trimmed and lower-cased, so each is unique ignoring case. */
@Schema({ collection: 'users', timestamps: true })
export class User {
  @Prop({ required: true, unique: true, trim: true, lowercase: true })
  username!: string;

  @Prop({ required: true, unique: true, trim: true, lowercase: true })
  email!: string;

  /** argon2id hash in PHC string form. */
  @Prop({ required: true })
  passwordHash!: string;

  @Prop({ type: String, enum: Object.values(Role), default: Role.USER })
  role!: Role;

  @Prop({ default: false })
  verified!: boolean;

  @Prop({ default: false })
  disabled!: boolean;

  /**
   * Access tokens carry the version they were issued under (`ver`); raising it (password change, disabling) ends
   * every older token at once, also one issued in the same millisecond, which no issue-time comparison can do.
   */
  @Prop({ default: 0 })
  tokenVersion!: number;
}

export type UserDocument = HydratedDocument<User>;
export const UserSchema = SchemaFactory.createForClass(User);
/** Registrations per month of one role (customer analytics). */
UserSchema.index({ role: 1, createdAt: 1 });
/** Operators list disabled (or enabled) accounts by username (user management). */
UserSchema.index({ disabled: 1, username: 1 });

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, Types } from 'mongoose';
import { OneTimeTokenKind } from './one-time-token-kind';

export { OneTimeTokenKind };

/** A single-use token mailed to a user. Only the token's hash is stored. */
@Schema({ collection: 'one_time_tokens', timestamps: true })
export class OneTimeToken {
  @Prop({ required: true, unique: true })
  tokenHash!: string;

  @Prop({ type: String, enum: Object.values(OneTimeTokenKind), required: true })
  kind!: OneTimeTokenKind;

  @Prop({ type: Types.ObjectId, required: true, index: true })
  userId!: Types.ObjectId;

  @Prop({ required: true })
  username!: string;

  @Prop({ type: Date, required: true, expires: 0 })
  expiresAt!: Date;
}

export type OneTimeTokenDocument = HydratedDocument<OneTimeToken>;
export const OneTimeTokenSchema = SchemaFactory.createForClass(OneTimeToken);

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, Types } from 'mongoose';

/** A login session. Keyed by the SHA-256 of the cookie value, so a database leak yields no usable session ids. */
@Schema({ collection: 'sessions', timestamps: true })
export class Session {
  @Prop({ required: true })
  _id!: string;

  @Prop({ type: Types.ObjectId, required: true, index: true })
  userId!: Types.ObjectId;

  @Prop({ required: true })
  rememberMe!: boolean;

  /** The database removes the session after this instant (TTL index). */
  @Prop({ type: Date, required: true, expires: 0 })
  expiresAt!: Date;
}

export type SessionDocument = HydratedDocument<Session>;
export const SessionSchema = SchemaFactory.createForClass(Session);

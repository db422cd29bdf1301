import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A JWT refused before its expiry (logout). Kept only until the token would have expired anyway (TTL index). */
@Schema({ collection: 'revoked_tokens' })
export class RevokedToken {
  /** The token's `jti`. */
  @Prop({ required: true })
  _id!: string;

  @Prop({ type: Date, required: true, expires: 0 })
  expiresAt!: Date;
}

export const RevokedTokenSchema = SchemaFactory.createForClass(RevokedToken);

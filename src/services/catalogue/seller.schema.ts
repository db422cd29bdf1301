import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes, Types } from 'mongoose';
import { keepsStorefrontIndex, productsOfSellers } from './storefront-index.hooks';

/** A merchant: the account that manages it, its company profile, its country and its shipping addresses. */
@Schema({ collection: 'sellers', timestamps: true })
export class Seller {
  @Prop({ required: true }) name!: string;
  /** Id of the user account acting for this seller. */
  @Prop({ index: true }) userId?: string;
  /** Id of the company profile (identity's profiles). */
  @Prop() profileId?: string;
  /** ISO 3166-1 alpha-2 code. */
  @Prop({ required: true, uppercase: true, index: true }) country!: string;
  @Prop({ type: [{ type: SchemaTypes.ObjectId, ref: 'Address' }], default: [], index: true })
  shippingAddresses!: Types.ObjectId[];
}

export type SellerDocument = HydratedDocument<Seller>;
export const SellerSchema = SchemaFactory.createForClass(Seller);
keepsStorefrontIndex(SellerSchema, productsOfSellers);

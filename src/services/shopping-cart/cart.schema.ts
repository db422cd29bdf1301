import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes, Types } from 'mongoose';

/** One line of a cart: a seller's offer (seller SKU) and how many of it. */
@Schema({ timestamps: { createdAt: 'addedAt', updatedAt: false } })
export class CartItem {
  _id!: Types.ObjectId;
  @Prop({ type: SchemaTypes.ObjectId, ref: 'SellerSku', required: true }) sellerSku!: Types.ObjectId;
  @Prop({ required: true, min: 1, validate: Number.isInteger }) quantity!: number;
}

export const CartItemSchema = SchemaFactory.createForClass(CartItem);

/** One cart per buyer; saved with optimistic concurrency so concurrent changes never overwrite each other. */
@Schema({ collection: 'carts', timestamps: true, optimisticConcurrency: true })
export class Cart {
  @Prop({ required: true, unique: true }) buyerId!: string;
  @Prop({ type: [CartItemSchema], default: [] }) items!: Types.DocumentArray<CartItem>;
  updatedAt?: Date;
}

export type CartDocument = HydratedDocument<Cart>;
export const CartSchema = SchemaFactory.createForClass(Cart);

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes, Types } from 'mongoose';
import { bumpsCatalogueRevision } from './catalogue-revision.hooks';

/** A seller's offer of one SKU: its price and the quantity in stock. */
@Schema({ collection: 'seller_skus', timestamps: true })
export class SellerSku {
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Seller', required: true, index: true }) seller!: Types.ObjectId;
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Sku', required: true, index: true }) sku!: Types.ObjectId;
  /** Denormalized from the SKU so facet aggregations reach the product in one lookup. */
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Product', required: true, index: true }) product!: Types.ObjectId;
  /** Integer minor units (cents) of `currency` (DESIGN §7). */
  @Prop({ required: true, min: 0, validate: Number.isInteger }) price!: number;
  /** ISO 4217 code. */
  @Prop({ required: true, uppercase: true }) currency!: string;
  @Prop({ required: true, min: 0, validate: Number.isInteger }) quantity!: number;
}

export type SellerSkuDocument = HydratedDocument<SellerSku>;
export const SellerSkuSchema = SchemaFactory.createForClass(SellerSku);
bumpsCatalogueRevision(SellerSkuSchema);
SellerSkuSchema.index({ seller: 1, sku: 1 }, { unique: true });
/** In-stock offers (`quantity > 0`), the base of every storefront filter. */
SellerSkuSchema.index({ quantity: 1 });
/** A product's offers in stock, cheapest first: the storefront listing's and detail's join (`product` leads). */
SellerSkuSchema.index({ product: 1, quantity: 1, price: 1 });

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes, Types } from 'mongoose';
import { AttributeValue, AttributeValueSchema } from './attribute-value.schema';
import { keepsStorefrontIndex, namedProduct } from './storefront-index.hooks';

/** A variant of a product (e.g. a pack size or pot size); sellers offer SKUs, never bare products. */
@Schema({ collection: 'skus', timestamps: true })
export class Sku {
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Product', required: true, index: true }) product!: Types.ObjectId;
  @Prop({ required: true, unique: true }) code!: string;
  @Prop({ required: true }) name!: string;
  @Prop({ type: [AttributeValueSchema], default: [] }) attributes!: AttributeValue[];
  /** Shipping weight of one item in grams; checkout assumes DEFAULT_ITEM_WEIGHT_GRAMS (delivery) when absent. */
  @Prop({ min: 1, validate: Number.isInteger }) weightGrams?: number;
}

export type SkuDocument = HydratedDocument<Sku>;
export const SkuSchema = SchemaFactory.createForClass(Sku);
keepsStorefrontIndex(SkuSchema, namedProduct('skus'));

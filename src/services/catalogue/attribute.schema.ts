import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';
import { AttributeType } from './attribute-type';
import { attributesWritten, keepsStorefrontIndex } from './storefront-index.hooks';

export { AttributeType };

/** A product or SKU property that storefronts filter by. */
@Schema({ collection: 'attributes', timestamps: true })
export class Attribute {
  @Prop({ required: true, unique: true }) code!: string;
  @Prop({ required: true }) name!: string;
  @Prop({ type: String, required: true, enum: AttributeType }) type!: AttributeType;
  @Prop() unit?: string;
}

export type AttributeDocument = HydratedDocument<Attribute>;
export const AttributeSchema = SchemaFactory.createForClass(Attribute);
// The storefront's attribute filters read the attributes of one type.
AttributeSchema.index({ type: 1 });
keepsStorefrontIndex(AttributeSchema, attributesWritten);

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';
import { AttributeValue, AttributeValueSchema } from './attribute-value.schema';
import { bumpsCatalogueRevision } from './catalogue-revision.hooks';

@Schema({ collection: 'products', timestamps: true })
export class Product {
  @Prop({ required: true, trim: true }) name!: string;
  @Prop({ default: '' }) description!: string;
  @Prop({ type: [String], default: [] }) images!: string[];
  @Prop({ type: [String], default: [], index: true }) categories!: string[];
  @Prop({ type: [AttributeValueSchema], default: [] }) attributes!: AttributeValue[];
  @Prop() geneticType?: string;
  /** ISO 3166-1 alpha-2 code. */
  @Prop({ uppercase: true }) countryOfOrigin?: string;
  @Prop({ default: false, index: true }) published!: boolean;
}

export type ProductDocument = HydratedDocument<Product>;
export const ProductSchema = SchemaFactory.createForClass(Product);
bumpsCatalogueRevision(ProductSchema);
/**
 * Storefront text search (`$text`) over name and description; a word of the name weighs more. One text index per
 * collection is allowed.
 */
ProductSchema.index(
  { name: 'text', description: 'text' },
  { name: 'product_text', weights: { name: 3, description: 1 }, default_language: 'english' },
);

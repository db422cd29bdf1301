import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';
import { AttributeValue, AttributeValueSchema } from './attribute-value.schema';
import { keepsStorefrontIndex, ownIds } from './storefront-index.hooks';

/** A product's name and description in one more language than its base (`name`, `description`). */
@Schema({ _id: false })
export class ProductTranslation {
  /** Primary language subtag, lower case (`de`, `fr`); `Lang-Context: de-CH` reads `de`. */
  @Prop({ required: true, lowercase: true, match: /^[a-z]{2,3}$/ }) lang!: string;
  @Prop({ required: true, trim: true }) name!: string;
  @Prop({ default: '' }) description!: string;
}
export const ProductTranslationSchema = SchemaFactory.createForClass(ProductTranslation);

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
  /** Content in other languages; the storefront answers in the `Lang-Context` language, else the base. */
  @Prop({ type: [ProductTranslationSchema], default: [] }) translations!: ProductTranslation[];
  /** URL path segment of the product page (lower-case words joined by `-`), unique. */
  @Prop({ unique: true, sparse: true, lowercase: true, trim: true }) slug?: string;
}

export type ProductDocument = HydratedDocument<Product>;
export const ProductSchema = SchemaFactory.createForClass(Product);
keepsStorefrontIndex(ProductSchema, ownIds);

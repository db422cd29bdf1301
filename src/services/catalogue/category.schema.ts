import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes, Types } from 'mongoose';

/**
 * A node of the category tree: roots have no `parent`; siblings are ordered by `position` (ties by name). Products
 * name their categories by id (`Product.categories`) when an ADMIN sets them through `catalogueAdminServiceImpl`.
 * Storefront index entries hold those ids only, so a category's change refreshes no entry.
 */
@Schema({ collection: 'categories', timestamps: true })
export class Category {
  @Prop({ required: true, trim: true }) name!: string;
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Category', default: null }) parent!: Types.ObjectId | null;
  @Prop({ required: true, min: 0, validate: Number.isInteger, default: 0 }) position!: number;
}

export type CategoryDocument = HydratedDocument<Category>;
export const CategorySchema = SchemaFactory.createForClass(Category);
/** Two siblings never share a name (a duplicate is a 409); also finds a node's children. */
CategorySchema.index({ parent: 1, name: 1 }, { unique: true });

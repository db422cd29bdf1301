import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';
import { bumpsCatalogueRevision } from './catalogue-revision.hooks';

/** OPTION attributes have a fixed list of choices (colour); VALUE attributes carry free values (height in cm). */
export enum AttributeType {
  OPTION = 'OPTION',
  VALUE = 'VALUE',
}

/** A product or SKU property that storefronts filter by. */
@Schema({ collection: 'attributes', timestamps: true })
export class Attribute {
  @Prop({ required: true, unique: true }) code!: string;
  @Prop({ required: true }) name!: string;
  @Prop({ required: true, enum: AttributeType }) type!: AttributeType;
  @Prop() unit?: string;
}

export type AttributeDocument = HydratedDocument<Attribute>;
export const AttributeSchema = SchemaFactory.createForClass(Attribute);
bumpsCatalogueRevision(AttributeSchema);

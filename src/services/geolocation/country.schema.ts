import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';

/** Loaded from the ISO 3166 dataset at start-up; `_id` is the alpha-2 code. */
@Schema({ collection: 'countries', versionKey: false })
export class Country {
  @Prop({ type: String }) _id!: string;
  @Prop({ required: true, unique: true }) code!: string;
  @Prop({ required: true }) alpha3!: string;
  @Prop() numeric!: string;
  @Prop({ type: Object, required: true }) names!: Record<string, string>;
  /** Fingerprint of the dataset the record came from. */
  @Prop({ required: true, index: true }) version!: string;
}

export type CountryDocument = HydratedDocument<Country>;
export const CountrySchema = SchemaFactory.createForClass(Country);

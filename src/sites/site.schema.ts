import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A site served by this backend; its id is what clients send as `Site-Context`. */
@Schema({ collection: 'sites', timestamps: true })
export class Site {
  @Prop({ required: true })
  _id!: string;

  @Prop({ required: true })
  name!: string;
}

export const SiteSchema = SchemaFactory.createForClass(Site);

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes } from 'mongoose';

/** A page of one site in one language. */
@Schema({ collection: 'pages', timestamps: true, versionKey: false })
export class Page {
  @Prop({ required: true })
  site!: string;

  @Prop({ required: true })
  lang!: string;

  /** The page's slug, unique per site and language; routes name pages by it. */
  @Prop({ required: true })
  pageUrl!: string;

  @Prop({ default: '' })
  content!: string;

  @Prop({ type: SchemaTypes.Mixed, default: {} })
  metaInfo!: Record<string, unknown>;

  @Prop()
  imageUrl?: string;

  @Prop()
  containerType?: string;

  @Prop({ type: [String], default: [] })
  categoriesId!: string[];

  @Prop()
  releaseDate?: Date;

  @Prop({ default: false })
  published!: boolean;

  /** A copy made for translation, still holding the source language's text. */
  @Prop({ default: false })
  awaitingTranslation!: boolean;

  @Prop({ default: false })
  emailTemplate!: boolean;

  /** The page this one was copied from. */
  @Prop()
  copiedFrom?: string;

  createdAt!: Date;
  updatedAt!: Date;
}

export type PageDocument = HydratedDocument<Page>;
export const PageSchema = SchemaFactory.createForClass(Page);
PageSchema.index({ site: 1, lang: 1, pageUrl: 1 }, { unique: true });

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes, Types } from 'mongoose';

@Schema({ _id: true, timestamps: true, versionKey: false })
export class Article {
  _id!: Types.ObjectId;

  @Prop({ required: true })
  title!: string;

  @Prop({ default: '' })
  summary!: string;

  @Prop({ default: '' })
  content!: string;

  @Prop()
  imageUrl?: string;

  @Prop()
  author?: string;

  @Prop({ type: [String], default: [] })
  tags!: string[];

  @Prop({ default: false })
  published!: boolean;

  @Prop()
  releaseDate?: Date;

  createdAt!: Date;
  updatedAt!: Date;
}

export const ArticleSchema = SchemaFactory.createForClass(Article);

/** A content container of one site and language: a blog, a news feed, an FAQ, ... holding articles. */
@Schema({ collection: 'content_containers', timestamps: true, versionKey: false })
export class ContentContainer {
  @Prop({ required: true })
  site!: string;

  @Prop({ required: true })
  lang!: string;

  @Prop({ required: true })
  type!: string;

  @Prop({ required: true })
  name!: string;

  @Prop({ default: '' })
  description!: string;

  @Prop()
  imageUrl?: string;

  @Prop({ type: [String], default: [] })
  tags!: string[];

  @Prop({ default: false })
  published!: boolean;

  @Prop({ type: SchemaTypes.Mixed, default: {} })
  metaInfo!: Record<string, unknown>;

  @Prop({ type: [ArticleSchema], default: [] })
  articles!: Types.DocumentArray<Article>;

  createdAt!: Date;
  updatedAt!: Date;
}

export type ContentContainerDocument = HydratedDocument<ContentContainer>;
export const ContentContainerSchema = SchemaFactory.createForClass(ContentContainer);
ContentContainerSchema.index({ site: 1, lang: 1, type: 1 });

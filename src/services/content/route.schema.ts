import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';

/** A public URI of a site in one language, leading to a page (and optionally a container), or redirecting. */
@Schema({ collection: 'routes', timestamps: true, versionKey: false })
export class Route {
  @Prop({ required: true })
  site!: string;

  @Prop({ required: true })
  lang!: string;

  /** Normalised: leading slash, no trailing slash, no empty segments. */
  @Prop({ required: true })
  uri!: string;

  @Prop()
  pageId?: string;

  @Prop()
  containerId?: string;

  @Prop()
  containerType?: string;

  /** Set when the page moved: the URI this one answers 301 to. */
  @Prop()
  redirectTo?: string;

  createdAt!: Date;
  updatedAt!: Date;
}

export type RouteDocument = HydratedDocument<Route>;
export const RouteSchema = SchemaFactory.createForClass(Route);
RouteSchema.index({ site: 1, lang: 1, uri: 1 }, { unique: true });
RouteSchema.index({ site: 1, pageId: 1 });

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** The one document counting the catalogue's writes; read-through caches of catalogue reads key by it. */
@Schema({ collection: 'catalogue_revisions', versionKey: false })
export class CatalogueRevision {
  @Prop({ type: String }) _id!: string;
  @Prop({ required: true, default: 0 }) revision!: number;
}

export const CatalogueRevisionSchema = SchemaFactory.createForClass(CatalogueRevision);

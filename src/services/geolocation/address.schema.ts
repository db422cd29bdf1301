import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';

@Schema({ collection: 'addresses', timestamps: true })
export class Address {
  @Prop() houseNumber?: string;
  @Prop({ required: true }) street!: string;
  @Prop({ required: true }) city!: string;
  @Prop({ required: true }) postalCode!: string;
  /** ISO 3166-1 alpha-2 code. */
  @Prop({ required: true, uppercase: true, index: true }) country!: string;
  /** Ids of the objects (sellers, profiles, orders) this address belongs to, as the client declares them. */
  @Prop({ type: [String], default: [] }) fallIntoObjects!: string[];
  /** Id of the user who created the address; only they (or an ADMIN) may read or change it. */
  @Prop({ index: true }) ownerId?: string;
}

export type AddressDocument = HydratedDocument<Address>;
export const AddressSchema = SchemaFactory.createForClass(Address);
/** A user's newest addresses first: the default shipping address at checkout. */
AddressSchema.index({ ownerId: 1, updatedAt: -1 });

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { SchemaTypes } from 'mongoose';
import { ParcelAddress, ParcelPackage, ParcelStatus } from '../logistics.provider';

/** A parcel booked with the sandbox carrier; one per reference. */
@Schema({ collection: 'sandbox_parcels', timestamps: true })
export class SandboxParcel {
  @Prop({ required: true, unique: true }) parcelId!: string;
  @Prop({ required: true, unique: true }) reference!: string;
  @Prop({ required: true }) trackingNumber!: string;
  @Prop({ type: String, enum: Object.values(ParcelStatus), required: true }) status!: ParcelStatus;
  @Prop({ type: SchemaTypes.Mixed, required: true }) address!: ParcelAddress;
  @Prop({ type: SchemaTypes.Mixed, default: {} }) package!: ParcelPackage;
  @Prop({ type: [{ _id: false, status: String, at: Date }], default: [] })
  history!: { status: ParcelStatus; at: Date }[];
}

export const SandboxParcelSchema = SchemaFactory.createForClass(SandboxParcel);

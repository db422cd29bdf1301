import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A named lock every instance sees: held by `owner` until `until`, which the owner renews while it works. */
@Schema({ collection: 'lease_locks', versionKey: false })
export class LeaseLock {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) owner!: string;
  @Prop({ type: Date, required: true }) until!: Date;
}

export const LeaseLockSchema = SchemaFactory.createForClass(LeaseLock);

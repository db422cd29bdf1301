import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes } from 'mongoose';
import { CustomerActivityType } from './customer-activity-type';

export { CustomerActivityType };

/** One thing a customer did, as recorded by the module where it happened. */
@Schema({ collection: 'customer_activities', versionKey: false })
export class CustomerActivity {
  @Prop({ required: true })
  customerId!: string;

  @Prop({ type: String, required: true, enum: Object.values(CustomerActivityType) })
  type!: CustomerActivityType;

  /** Details of the action (product id, order id and status, ...); shape depends on `type`. */
  @Prop({ type: SchemaTypes.Mixed, default: {} })
  data!: Record<string, unknown>;

  @Prop({ required: true, default: () => new Date() })
  at!: Date;
}

export type CustomerActivityDocument = HydratedDocument<CustomerActivity>;
export const CustomerActivitySchema = SchemaFactory.createForClass(CustomerActivity);
CustomerActivitySchema.index({ customerId: 1, at: -1 });
CustomerActivitySchema.index({ type: 1, at: -1 });

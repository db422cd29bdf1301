import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { AltPaymentStatus } from '../alt-payment.provider';

/** A payment as the sandbox provider keeps it. `paymentId` is random: it is the capability of the buyer's page. */
@Schema({ collection: 'sandbox_alt_payments', timestamps: true })
export class SandboxAltPayment {
  @Prop({ required: true, unique: true }) paymentId!: string;
  @Prop({ required: true, unique: true }) idempotencyKey!: string;
  @Prop({ required: true }) orderId!: string;
  @Prop({ required: true }) amount!: number;
  @Prop({ required: true }) currency!: string;
  @Prop({ type: String, enum: Object.values(AltPaymentStatus), required: true }) status!: AltPaymentStatus;
  @Prop({ required: true }) returnUrl!: string;
}

export const SandboxAltPaymentSchema = SchemaFactory.createForClass(SandboxAltPayment);

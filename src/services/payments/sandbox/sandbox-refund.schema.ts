import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { RefundStatus } from '../card-payment.provider';

/** A refund the sandbox made on one of its intents; `reference` (the merchant's) is unique, so a retry refunds once. */
@Schema({ collection: 'sandbox_card_refunds', timestamps: true })
export class SandboxRefund {
  @Prop({ required: true, unique: true }) refundId!: string;
  @Prop({ required: true, unique: true }) reference!: string;
  @Prop({ required: true }) paymentIntentId!: string;
  @Prop({ required: true }) orderId!: string;
  @Prop({ required: true }) amount!: number;
  @Prop({ required: true }) currency!: string;
  @Prop({ type: String, enum: Object.values(RefundStatus), required: true }) status!: RefundStatus;
}

export const SandboxRefundSchema = SchemaFactory.createForClass(SandboxRefund);

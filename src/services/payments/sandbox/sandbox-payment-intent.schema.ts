import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { PaymentIntentStatus } from '../card-payment.provider';

/** A charge the sandbox made; `idempotencyKey` is unique, so retrying a charge returns the first intent. */
@Schema({ collection: 'sandbox_card_payment_intents', timestamps: true })
export class SandboxPaymentIntent {
  @Prop({ required: true, unique: true }) intentId!: string;
  @Prop({ required: true, unique: true }) idempotencyKey!: string;
  @Prop({ required: true }) orderId!: string;
  @Prop({ required: true }) amount!: number;
  @Prop({ required: true }) currency!: string;
  @Prop({ required: true }) paymentMethodId!: string;
  @Prop({ type: String, enum: Object.values(PaymentIntentStatus), required: true }) status!: PaymentIntentStatus;
  @Prop() failureCode?: string;
  /** What has been refunded of `amount` so far; never more than `amount`. */
  @Prop({ default: 0 }) refunded!: number;
  @Prop() description?: string;
  @Prop() destinationAccountId?: string;
  @Prop({ type: Map, of: String }) metadata?: Map<string, string>;
  /** Where the challenge page sends the buyer back once answered. */
  @Prop() returnUrl?: string;
}

export const SandboxPaymentIntentSchema = SchemaFactory.createForClass(SandboxPaymentIntent);

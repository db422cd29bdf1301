import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { CardBehaviour } from './test-cards';

/**
 * A card tokenized by the sandbox; like a real provider it keeps the brand and last four digits only, and the
 * customer (user id) it belongs to: no one else can charge it.
 */
@Schema({ collection: 'sandbox_card_payment_methods', timestamps: true })
export class SandboxPaymentMethod {
  @Prop({ required: true, unique: true }) methodId!: string;
  @Prop({ required: true }) customerId!: string;
  @Prop({ required: true }) brand!: string;
  @Prop({ required: true }) last4!: string;
  @Prop({ required: true }) expMonth!: number;
  @Prop({ required: true }) expYear!: number;
  @Prop({ type: String, enum: Object.values(CardBehaviour), required: true }) behaviour!: CardBehaviour;
}

export const SandboxPaymentMethodSchema = SchemaFactory.createForClass(SandboxPaymentMethod);

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A webhook event already handled; its unique (source, eventId) makes redelivery a no-op. */
@Schema({ collection: 'processed_webhooks', timestamps: { createdAt: 'processedAt', updatedAt: false } })
export class ProcessedWebhook {
  /** e.g. `cardpayment`, `delivery`, `altpayment`. */
  @Prop({ required: true }) source!: string;
  @Prop({ required: true }) eventId!: string;
}

export const ProcessedWebhookSchema = SchemaFactory.createForClass(ProcessedWebhook);
ProcessedWebhookSchema.index({ source: 1, eventId: 1 }, { unique: true });

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';

export enum DeliveryState {
  PENDING = 'PENDING',
  DELIVERED = 'DELIVERED',
  ABANDONED = 'ABANDONED',
}

/** Finished deliveries are kept this long for inspection, then expire. */
const KEEP_FINISHED_SECONDS = 7 * 24 * 3600;

/** One POST to the subscriber: when, by which instance, and what came of it. */
@Schema({ _id: false })
export class DeliveryAttempt {
  @Prop({ type: Date, required: true }) at!: Date;
  @Prop({ required: true }) instance!: string;
  /** The subscriber's HTTP status, absent when no answer came. */
  @Prop() status?: number;
  @Prop() error?: string;
}

/**
 * One webhook message to one subscriber (an outbox row), stored before the first attempt and delivered by whichever
 * instance claims it when due. `nextAttemptAt` doubles as a lease: the claiming instance moves it past the attempt's
 * timeout before posting, so two instances never post the same attempt at once.
 */
@Schema({ collection: 'webhook_deliveries', timestamps: true })
export class WebhookDelivery {
  @Prop({ required: true }) event!: string;
  @Prop({ required: true }) url!: string;
  /** The JSON text posted, identical on every attempt (its `id` lets subscribers drop duplicates). */
  @Prop({ required: true }) body!: string;
  @Prop({ type: String, enum: DeliveryState, default: DeliveryState.PENDING, index: true }) state!: DeliveryState;
  @Prop({ default: 0 }) attempts!: number;
  @Prop({ type: Date, required: true }) nextAttemptAt!: Date;
  @Prop() lastError?: string;
  @Prop({ type: [DeliveryAttempt], default: [] }) attemptLog!: DeliveryAttempt[];
  @Prop({ type: Date, expires: KEEP_FINISHED_SECONDS }) finishedAt?: Date;
}

export type WebhookDeliveryDocument = HydratedDocument<WebhookDelivery>;
export const WebhookDeliverySchema = SchemaFactory.createForClass(WebhookDelivery);
/** The poll for due deliveries. */
WebhookDeliverySchema.index({ state: 1, nextAttemptAt: 1 });

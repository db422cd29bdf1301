import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** The mails about orders; each is also the name of its template. */
export enum OrderMailKind {
  PLACED = 'order-placed',
  PAID = 'order-paid',
  SHIPPED = 'order-shipped',
  DELIVERED = 'order-delivered',
  CANCELED = 'order-canceled',
  REFUNDED = 'order-refunded',
  /** To the seller: a paid order to ship. */
  SELLER_PAID = 'seller-order-paid',
}

export enum OrderMailState {
  PENDING = 'PENDING',
  SENT = 'SENT',
  /** Given up after the last attempt (see `lastError`). */
  ABANDONED = 'ABANDONED',
}

/**
 * One mail about an order, stored before it is sent (the mail outbox). `key` is unique per order and kind (and
 * refund), so a redelivered event or a second instance queues nothing twice; the content is rendered when it is
 * sent, from the order as it is then.
 */
@Schema({ collection: 'order_mails', timestamps: true })
export class OrderMail {
  /** `<orderId>:<kind>`, and `:<refundId>` for a refund's mail. */
  @Prop({ required: true, unique: true }) key!: string;
  @Prop({ type: String, enum: Object.values(OrderMailKind), required: true }) kind!: OrderMailKind;
  @Prop({ required: true }) orderId!: string;
  @Prop({ required: true }) to!: string;
  /** The language of the template, e.g. `de` (a `Lang-Context` like `de-CH` is kept whole). */
  @Prop({ required: true }) lang!: string;
  @Prop() refundId?: string;
  @Prop({ type: String, enum: Object.values(OrderMailState), default: OrderMailState.PENDING }) state!: OrderMailState;
  @Prop({ default: 0 }) attempts!: number;
  /** When the next attempt is due; a claimed attempt moves it past its lease, so one instance sends it. */
  @Prop({ required: true }) nextAttemptAt!: Date;
  @Prop() lastError?: string;
  @Prop() sentAt?: Date;
}

export type StoredOrderMail = OrderMail & { _id: Types.ObjectId };
export const OrderMailSchema = SchemaFactory.createForClass(OrderMail);
/** The due mails, oldest first (every instance polls this). */
OrderMailSchema.index({ state: 1, nextAttemptAt: 1 });

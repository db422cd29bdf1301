import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { SchemaTypes, Types } from 'mongoose';
import { OrderStatus } from './order-status';

const integer = { validate: { validator: Number.isInteger, message: '{PATH} must be a whole number' } };

/** One bought line, frozen at checkout: later price or name changes of the offer do not alter the order. */
@Schema()
export class CommerceItem {
  _id!: Types.ObjectId;
  @Prop({ type: SchemaTypes.ObjectId, required: true, index: true }) sellerSku!: Types.ObjectId;
  @Prop({ type: SchemaTypes.ObjectId }) sku?: Types.ObjectId;
  @Prop({ type: SchemaTypes.ObjectId }) product?: Types.ObjectId;
  @Prop({ required: true }) name!: string;
  @Prop() skuName?: string;
  @Prop({ required: true, min: 0, ...integer }) quantity!: number;
  /** Integer minor units of the order's currency. */
  @Prop({ required: true, min: 0, ...integer }) unitPrice!: number;
  /** `unitPrice × quantity`, integer minor units. */
  @Prop({ required: true, min: 0, ...integer }) total!: number;
}
export const CommerceItemSchema = SchemaFactory.createForClass(CommerceItem);

/** The seller as it was when the order was placed. */
@Schema({ _id: false })
export class EmbeddedVendor {
  @Prop({ required: true }) sellerId!: string;
  @Prop({ required: true }) name!: string;
  /** ISO 3166-1 alpha-2. */
  @Prop() country?: string;
  /** The user account acting for the seller: it may follow the order's topic. */
  @Prop() userId?: string;
  @Prop() profileId?: string;
}
export const EmbeddedVendorSchema = SchemaFactory.createForClass(EmbeddedVendor);

/** The buyer as it was when the order was placed. */
@Schema({ _id: false })
export class EmbeddedBuyer {
  @Prop({ required: true }) userId!: string;
  @Prop({ required: true }) username!: string;
  @Prop() email?: string;
}
export const EmbeddedBuyerSchema = SchemaFactory.createForClass(EmbeddedBuyer);

/** One transition of the order: the status entered, when, and by whom (a user id, or `system:<provider>`). */
@Schema({ _id: false })
export class OrderTimeLine {
  @Prop({ type: String, enum: Object.values(OrderStatus), required: true }) status!: OrderStatus;
  @Prop({ required: true }) at!: Date;
  @Prop({ required: true }) by!: string;
  /** The provider's refund this entry settled (a partial refund keeps the status and adds an entry). */
  @Prop() refundId?: string;
}
export const OrderTimeLineSchema = SchemaFactory.createForClass(OrderTimeLine);

/** The parcel's dimensions and weight, for logistics rates and booking. */
@Schema({ _id: false })
export class PackageItem {
  @Prop({ min: 0, ...integer }) weightGrams?: number;
  @Prop({ min: 0, ...integer }) lengthCm?: number;
  @Prop({ min: 0, ...integer }) widthCm?: number;
  @Prop({ min: 0, ...integer }) heightCm?: number;
}
export const PackageItemSchema = SchemaFactory.createForClass(PackageItem);

/** Where the parcel goes: a street address, or a pickup point of the logistics provider. */
@Schema({ _id: false })
export class ShippingAddress {
  @Prop() name?: string;
  @Prop() street?: string;
  @Prop() houseNumber?: string;
  @Prop() city?: string;
  @Prop() postalCode?: string;
  /** ISO 3166-1 alpha-2. */
  @Prop({ uppercase: true }) country?: string;
  @Prop() pickupPointId?: string;
}
export const ShippingAddressSchema = SchemaFactory.createForClass(ShippingAddress);

/** The logistics provider's rate for the order's parcel, quoted at checkout from the seller's warehouse country. */
@Schema({ _id: false })
export class ShippingLine {
  @Prop({ required: true }) service!: string;
  /** Integer minor units of the order's currency. */
  @Prop({ required: true, min: 0, ...integer }) amount!: number;
  @Prop({ required: true, uppercase: true }) currency!: string;
  @Prop({ min: 0, ...integer }) estimatedDays?: number;
  /** ISO 3166-1 alpha-2: the seller's warehouse country and the destination. */
  @Prop({ required: true, uppercase: true }) fromCountry!: string;
  @Prop({ required: true, uppercase: true }) toCountry!: string;
  @Prop({ required: true, min: 0, ...integer }) weightGrams!: number;
}
export const ShippingLineSchema = SchemaFactory.createForClass(ShippingLine);

export enum OrderRefundStatus {
  /** Asked of the provider; settled only by its signed webhook, confirmed by the provider. */
  PENDING = 'PENDING',
  SUCCEEDED = 'SUCCEEDED',
  /** The provider refused it: it counts for nothing. */
  FAILED = 'FAILED',
}

/** Units of one bought line given back in a refund. */
@Schema({ _id: false })
export class RefundedItem {
  @Prop({ type: SchemaTypes.ObjectId, required: true }) sellerSku!: Types.ObjectId;
  @Prop({ required: true, min: 1, ...integer }) quantity!: number;
}
export const RefundedItemSchema = SchemaFactory.createForClass(RefundedItem);

/**
 * A refund of some or all items of a paid order. `reference` is ours (and the provider's idempotency key),
 * `refundId` the provider's; `restock` says whether the items return to the offers once it succeeds; `cancel` marks
 * the buyer's cancellation of a paid order, which becomes CANCELED (not REFUNDED) when it succeeds.
 */
@Schema({ _id: false })
export class OrderRefund {
  @Prop({ required: true }) reference!: string;
  @Prop() refundId?: string;
  @Prop({ required: true, min: 1, ...integer }) amount!: number;
  @Prop({ type: [RefundedItemSchema], default: [] }) items!: RefundedItem[];
  @Prop({ required: true }) restock!: boolean;
  @Prop({ default: false }) cancel!: boolean;
  @Prop({ type: String, enum: Object.values(OrderRefundStatus), required: true }) status!: OrderRefundStatus;
  @Prop({ required: true }) requestedBy!: string;
  @Prop({ required: true }) requestedAt!: Date;
  @Prop() settledAt?: Date;
}
export const OrderRefundSchema = SchemaFactory.createForClass(OrderRefund);

import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, Types } from 'mongoose';
import {
  CommerceItem,
  CommerceItemSchema,
  EmbeddedBuyer,
  EmbeddedBuyerSchema,
  EmbeddedVendor,
  EmbeddedVendorSchema,
  OrderRefund,
  OrderRefundSchema,
  OrderTimeLine,
  OrderTimeLineSchema,
  PackageItem,
  PackageItemSchema,
  ShippingAddress,
  ShippingAddressSchema,
  ShippingLine,
  ShippingLineSchema,
} from './order-parts.schema';
import { OrderStatus } from './order-status';

export {
  CommerceItem,
  EmbeddedBuyer,
  EmbeddedVendor,
  OrderRefund,
  OrderTimeLine,
  PackageItem,
  ShippingAddress,
  ShippingLine,
  OrderStatus,
};

const integer = { validate: { validator: Number.isInteger, message: '{PATH} must be a whole number' } };

/**
 * An order of one buyer from one seller (checkout splits a cart per seller). Money is integer minor units of
 * `currencyCode`; tax rates are percentages (21 means 21 %). `status` is the last entry of `orderTimeLines`, kept
 * as a field so transitions can be conditional updates on it (DESIGN §7).
 */
@Schema({ collection: 'orders', timestamps: true })
export class Order {
  @Prop({ type: String, enum: Object.values(OrderStatus), required: true, default: OrderStatus.NEW })
  status!: OrderStatus;

  @Prop() contactProfileId?: string;
  @Prop({ type: EmbeddedVendorSchema, required: true }) embeddedVendor!: EmbeddedVendor;
  @Prop({ type: EmbeddedBuyerSchema, required: true }) embeddedBuyer!: EmbeddedBuyer;
  @Prop({ type: [OrderTimeLineSchema], default: [] }) orderTimeLines!: OrderTimeLine[];
  @Prop({ type: [CommerceItemSchema], default: [] }) commerceItems!: Types.DocumentArray<CommerceItem>;

  /** Sum of the items' totals, before tax. */
  @Prop({ required: true, min: 0, default: 0, ...integer }) subtotal!: number;
  /** VAT charged to the buyer on goods and shipping: `round((subtotal + shipping.amount) × buyerTaxRate / 100)`. */
  @Prop({ required: true, min: 0, default: 0, ...integer }) tax!: number;
  /** What the buyer pays: `subtotal + shipping.amount + tax`. */
  @Prop({ required: true, min: 0, default: 0, ...integer }) total!: number;
  /** ISO 4217 code; every item of an order is in this currency. */
  @Prop({ required: true, uppercase: true }) currencyCode!: string;
  @Prop() currencySymbol?: string;

  /** VAT rate of the seller's invoices (payout), in percent. */
  @Prop({ min: 0, max: 100, default: 0 }) sellerTaxRate!: number;
  /** VAT rate charged to the buyer on the items, in percent. */
  @Prop({ min: 0, max: 100, default: 0 }) buyerTaxRate!: number;
  /** The marketplace's service fee (commission) on the subtotal, in percent. */
  @Prop({ min: 0, max: 100, default: 0 }) serviceTaxRate!: number;

  @Prop({ type: PackageItemSchema }) packageItem?: PackageItem;
  @Prop({ type: ShippingAddressSchema }) shippingAddress?: ShippingAddress;
  /** The parcel's price, quoted at checkout for `shippingAddress`; none for digital orders. */
  @Prop({ type: ShippingLineSchema }) shipping?: ShippingLine;
  /** Created by `digitalOrderCheckout` rather than from the cart. */
  @Prop({ default: false }) digital!: boolean;

  /** The card (payment method) the buyer chose; `pay` charges it. */
  @Prop() paymentMethodId?: string;
  /** Where the card provider's 3-D Secure page sends the buyer back (`returnUrl` of the payment request). */
  @Prop() paymentReturnUrl?: string;
  /** The card provider's payment intent of the last charge attempt. */
  @Prop({ index: true }) paymentIntentId?: string;
  /** The logistics provider's parcel, set by `ship`. */
  @Prop({ index: true }) parcelId?: string;
  /** The connect-account payout to the seller (accounting). */
  @Prop() payoutId?: string;

  /** Refunds asked for after payment, oldest first. */
  @Prop({ type: [OrderRefundSchema], default: [] }) refunds?: OrderRefund[];
  /** Counts changes of `refunds`: asking for or settling a refund is conditional on it (no over-refund in a race). */
  @Prop({ default: 0 }) refundVersion?: number;
  /**
   * Set by the move to PAID (in the same update), removed once every `order.paid` listener succeeded (the
   * buyer's invoice exists): while set, the order still owes its invoice and the retry sweep takes it after
   * `INVOICE_RETRY_AFTER` (a claim moves it forward, so one instance retries at a time).
   */
  @Prop() invoiceDueAt?: Date;
  /**
   * Set by a refund's settlement (in the same update), removed once its credit note is issued: while set, the order
   * still owes a credit note and `CreditNoteRetry` issues it after `INVOICE_RETRY_AFTER`, also when the process died
   * between the settlement and the note.
   */
  @Prop() creditNoteDueAt?: Date;
  /** The buyer's `Lang-Context` at checkout: the language of the mails about the order. */
  @Prop() lang?: string;

  createdAt?: Date;
  updatedAt?: Date;
}

export type OrderDocument = HydratedDocument<Order>;
export const OrderSchema = SchemaFactory.createForClass(Order);
OrderSchema.index({ 'embeddedBuyer.userId': 1, createdAt: -1 });
/** The seller's order desk, newest first (`SellerOrderDesk`); its prefix serves lookups by seller. */
OrderSchema.index({ 'embeddedVendor.sellerId': 1, createdAt: -1 });
/** The default order of order searches, newest first (an unfiltered page reads only its window). */
OrderSchema.index({ createdAt: -1 });
/** Orders by status, oldest first: the expiry sweep of unpaid orders (and every status filter). */
OrderSchema.index({ status: 1, createdAt: 1 });
/** Paid orders still owing their invoice (few: the sweep of `OrderPaidRetry`); absent on every other order. */
OrderSchema.index({ invoiceDueAt: 1 }, { sparse: true });
/** Orders still owing a credit note of a settled refund (few: the sweep of `CreditNoteRetry`). */
OrderSchema.index({ creditNoteDueAt: 1 }, { sparse: true });
/** Payments left pending, by their last change: the expiry sweep of abandoned 3-D Secure challenges. */
OrderSchema.index({ status: 1, updatedAt: 1 });
/** Orders with a refund whose webhook is awaited: `handleNotify` asks the provider about them. */
OrderSchema.index({ 'refunds.status': 1 });

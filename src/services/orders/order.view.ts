import { Types } from 'mongoose';
import { orderTotals, OrderTotals } from './order-amounts';
import { CommerceItem, Order, OrderRefund, OrderStatus, ShippingLine } from './order.schema';

/** An order as read from the database (lean). */
export type StoredOrder = Order & { _id: Types.ObjectId; commerceItems: CommerceItem[] };

export interface CommerceItemView {
  id: string;
  sellerSkuId: string;
  skuId: string | null;
  productId: string | null;
  name: string;
  skuName: string | null;
  quantity: number;
  unitPrice: number;
  total: number;
}

/** The OrderDTO: the order as clients see it; money in integer minor units of `currencyCode`, dates ISO-8601. */
export interface OrderView {
  id: string;
  status: OrderStatus;
  contactProfileId: string | null;
  embeddedVendor: Order['embeddedVendor'];
  embeddedBuyer: Order['embeddedBuyer'];
  orderTimeLines: { status: OrderStatus; at: string; by: string; refundId?: string }[];
  commerceItems: CommerceItemView[];
  subtotal: number;
  tax: number;
  total: number;
  currencyCode: string;
  currencySymbol: string | null;
  sellerTaxRate: number;
  buyerTaxRate: number;
  serviceTaxRate: number;
  packageItem: Order['packageItem'] | null;
  shippingAddress: Order['shippingAddress'] | null;
  /** The quoted parcel price (null for digital orders and orders placed without an address). */
  shipping: ShippingLine | null;
  /** goods, shipping, tax, fees and total of this order (one seller); `total` is what `pay` charges. */
  totals: OrderTotals;
  digital: boolean;
  paymentMethodId: string | null;
  paymentIntentId: string | null;
  parcelId: string | null;
  payoutId: string | null;
  refunds: RefundView[];
  createdAt: string | null;
  updatedAt: string | null;
}

export interface RefundView {
  reference: string;
  refundId: string | null;
  amount: number;
  items: { sellerSkuId: string; quantity: number }[];
  restock: boolean;
  cancel: boolean;
  status: OrderRefund['status'];
  requestedBy: string;
  requestedAt: string;
  settledAt: string | null;
}

export function toOrderView(order: StoredOrder): OrderView {
  return {
    id: String(order._id),
    status: order.status,
    contactProfileId: order.contactProfileId ?? null,
    embeddedVendor: order.embeddedVendor,
    embeddedBuyer: order.embeddedBuyer,
    orderTimeLines: order.orderTimeLines.map(({ status, at, by, refundId }) => ({
      status,
      at: at.toISOString(),
      by,
      ...(refundId ? { refundId } : {}),
    })),
    commerceItems: order.commerceItems.map(toItemView),
    subtotal: order.subtotal,
    tax: order.tax,
    total: order.total,
    currencyCode: order.currencyCode,
    currencySymbol: order.currencySymbol ?? null,
    sellerTaxRate: order.sellerTaxRate,
    buyerTaxRate: order.buyerTaxRate,
    serviceTaxRate: order.serviceTaxRate,
    packageItem: order.packageItem ?? null,
    shippingAddress: order.shippingAddress ?? null,
    shipping: order.shipping ?? null,
    totals: totalsOf(order),
    digital: order.digital,
    paymentMethodId: order.paymentMethodId ?? null,
    paymentIntentId: order.paymentIntentId ?? null,
    parcelId: order.parcelId ?? null,
    payoutId: order.payoutId ?? null,
    refunds: (order.refunds ?? []).map(toRefundView),
    createdAt: order.createdAt?.toISOString() ?? null,
    updatedAt: order.updatedAt?.toISOString() ?? null,
  };
}

/** From the stored amounts, so the breakdown always adds up to what is charged. */
function totalsOf(order: StoredOrder): OrderTotals {
  const shipping = order.shipping?.amount ?? 0;
  const { fees } = orderTotals({ ...order, goods: order.subtotal, shipping });
  return { goods: order.subtotal, shipping, tax: order.tax, fees, total: order.total };
}

function toItemView(item: CommerceItem): CommerceItemView {
  return {
    id: String(item._id),
    sellerSkuId: String(item.sellerSku),
    skuId: item.sku ? String(item.sku) : null,
    productId: item.product ? String(item.product) : null,
    name: item.name,
    skuName: item.skuName ?? null,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    total: item.total,
  };
}

function toRefundView(refund: OrderRefund): RefundView {
  return {
    reference: refund.reference,
    refundId: refund.refundId ?? null,
    amount: refund.amount,
    items: refund.items.map(({ sellerSku, quantity }) => ({ sellerSkuId: String(sellerSku), quantity })),
    restock: refund.restock,
    cancel: refund.cancel,
    status: refund.status,
    requestedBy: refund.requestedBy,
    requestedAt: refund.requestedAt.toISOString(),
    settledAt: refund.settledAt?.toISOString() ?? null,
  };
}

import { StoredOrder } from '../orders/order.view';

/** What a template may use; amounts are formatted in the mail's language (`12,34 €` in German). */
export interface OrderMailData {
  orderId: string;
  buyerName: string;
  sellerName: string;
  items: { name: string; quantity: number; total: string }[];
  goods: string;
  /** Absent for an order without a shipping line (digital). */
  shipping?: string;
  tax: string;
  total: string;
  /** The shipping address, one line each. */
  shipTo: string[];
  /** The shipping service and the parcel's id, once shipped with a parcel. */
  carrier?: string;
  trackingNumber?: string;
  /** The refund this mail is about (refunded, or canceled after payment). */
  refundAmount?: string;
}

export function orderMailData(order: StoredOrder, lang: string, refundId?: string): OrderMailData {
  const money = (amount: number) => formatMoneyIn(lang, amount, order.currencyCode);
  const refund = refundId ? order.refunds?.find((one) => one.refundId === refundId) : undefined;
  return {
    orderId: String(order._id),
    buyerName: order.shippingAddress?.name || order.embeddedBuyer.username,
    sellerName: order.embeddedVendor.name,
    items: order.commerceItems.map(({ name, skuName, quantity, total }) => ({
      name: skuName ? `${name} (${skuName})` : name,
      quantity,
      total: money(total),
    })),
    goods: money(order.subtotal),
    ...(order.shipping ? { shipping: money(order.shipping.amount) } : {}),
    tax: money(order.tax),
    total: money(order.total),
    shipTo: order.shippingAddress ? addressLines(order.shippingAddress) : [],
    ...(order.parcelId ? { carrier: order.shipping?.service ?? '', trackingNumber: order.parcelId } : {}),
    ...(refund ? { refundAmount: money(refund.amount) } : {}),
  };
}

/** Minor units in the currency's own number of digits, in the language's format. */
function formatMoneyIn(lang: string, amount: number, currency: string): string {
  const format = new Intl.NumberFormat(lang, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

function addressLines(address: NonNullable<StoredOrder['shippingAddress']>): string[] {
  const street = [address.street, address.houseNumber].filter(Boolean).join(' ');
  const city = [address.postalCode, address.city].filter(Boolean).join(' ');
  return [address.name ?? '', street, city, address.country ?? ''].filter(Boolean);
}

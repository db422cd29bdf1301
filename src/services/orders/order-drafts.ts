import { OfferDetails } from '../catalogue/offer-catalog';
import { parcelWeight } from '../delivery/shipping-quotes';
import { orderTotals } from './order-amounts';
import { EmbeddedBuyer, EmbeddedVendor, Order, OrderStatus, ShippingAddress } from './order.schema';

export interface OrderLine {
  offer: OfferDetails;
  quantity: number;
}

export interface OrderRates {
  sellerTaxRate: number;
  buyerTaxRate: number;
  serviceTaxRate: number;
}

export interface DraftContext {
  buyer: EmbeddedBuyer;
  /** Who places the order (the buyer, or an ADMIN creating it). */
  by: string;
  rates: OrderRates;
  /** The seller accounts' user and profile ids, by seller id. */
  vendors: Map<string, Pick<EmbeddedVendor, 'userId' | 'profileId'>>;
  digital: boolean;
  shippingAddress?: ShippingAddress;
  contactProfileId?: string;
  paymentMethodId?: string;
  paymentReturnUrl?: string;
}

export type OrderDraft = Omit<Order, 'commerceItems'> & { commerceItems: Record<string, unknown>[] };

/** One NEW order per seller and currency (an order has a single currency), items frozen at today's prices. */
export function draftOrders(lines: OrderLine[], context: DraftContext, now = new Date()): OrderDraft[] {
  const groups = new Map<string, OrderLine[]>();
  for (const line of lines) {
    const key = `${String(line.offer.seller._id)}/${line.offer.currency}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  return [...groups.values()].map((group) => draftOrder(group, context, now));
}

function draftOrder(lines: OrderLine[], context: DraftContext, now: Date): OrderDraft {
  const { seller, currency } = lines[0].offer;
  const sellerId = String(seller._id);
  const commerceItems = lines.map(({ offer, quantity }) => ({
    sellerSku: offer._id,
    sku: offer.sku._id,
    product: offer.product._id,
    name: offer.product.name,
    skuName: offer.sku.name,
    quantity,
    unitPrice: offer.price,
    total: offer.price * quantity,
  }));
  const subtotal = commerceItems.reduce((sum, item) => sum + item.total, 0);
  return {
    status: OrderStatus.NEW,
    embeddedVendor: { sellerId, name: seller.name, country: seller.country, ...context.vendors.get(sellerId) },
    embeddedBuyer: context.buyer,
    orderTimeLines: [{ status: OrderStatus.NEW, at: now, by: context.by }],
    commerceItems,
    currencyCode: currency,
    currencySymbol: currencySymbol(currency),
    ...context.rates,
    ...amounts(subtotal, context.rates.buyerTaxRate),
    digital: context.digital,
    packageItem: context.digital ? undefined : { weightGrams: weightOf(lines) },
    shippingAddress: context.shippingAddress,
    contactProfileId: context.contactProfileId,
    paymentMethodId: context.paymentMethodId,
    paymentReturnUrl: context.paymentReturnUrl,
  };
}

/** Subtotal, tax (on goods and shipping, rounded half up to the minor unit) and total, integer minor units. */
export function amounts(
  subtotal: number,
  buyerTaxRate: number,
  shipping = 0,
): Pick<Order, 'subtotal' | 'tax' | 'total'> {
  const { tax, total } = orderTotals({ goods: subtotal, shipping, buyerTaxRate, serviceTaxRate: 0 });
  return { subtotal, tax, total };
}

/** The parcel's weight in grams: the SKUs' weights (or the default per item) times the quantities. */
function weightOf(lines: OrderLine[]): number {
  return parcelWeight(lines.map(({ offer, quantity }) => ({ weightGrams: offer.sku.weightGrams, quantity })));
}

export function currencySymbol(currency: string): string {
  try {
    const parts = new Intl.NumberFormat('en', { style: 'currency', currency }).formatToParts(0);
    return parts.find((part) => part.type === 'currency')?.value ?? currency;
  } catch {
    return currency;
  }
}

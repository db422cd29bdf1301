import { Types } from 'mongoose';
import { Cart, CartItem } from './cart.schema';
import { OfferDetails } from '../catalogue/offer-catalog';
import { DEFAULT_ITEM_WEIGHT_GRAMS } from '../delivery/shipping-quotes';
import { OrderTotals } from '../orders/order-amounts';

/** An amount in integer minor units of `currency`. */
export interface Money {
  currency: string;
  amount: number;
}

export interface CartItemView {
  id: string;
  sellerSkuId: string;
  skuId: string;
  skuName: string;
  productId: string;
  productName: string;
  image: string | null;
  price: number;
  currency: string;
  quantity: number;
  inStock: number;
  total: number;
  /** Shipping weight of one item (the SKU's, or the default per item). */
  weightGrams: number;
}

/** What one order of the checkout would cost (one per seller and currency); shipping null when not quoted. */
export interface SellerTotalsView extends OrderTotals {
  currency: string;
  /** Why `shipping` is null (no default address, or no rate for the route); null when it is quoted. */
  shippingNote: string | null;
}

export interface SellerCartView {
  sellerId: string;
  sellerName: string;
  country: string;
  items: CartItemView[];
  totals: Money[];
}

/** A seller's lines with the estimated totals of the orders they would make. */
export interface SellerCartWithTotals extends SellerCartView {
  breakdown: SellerTotalsView[];
}

/** The cart's contents, as stored and priced from the offers (checkout reads these). */
export interface CartContents {
  id: string | null;
  buyerId: string;
  sellers: SellerCartView[];
  totals: Money[];
  itemCount: number;
  updatedAt: string | null;
}

/**
 * The ShoppingCartDTO: items grouped by seller, goods totals per currency (a cart may mix currencies), and per
 * seller the estimated order totals with shipping to the buyer's default address.
 */
export interface ShoppingCartView extends Omit<CartContents, 'sellers'> {
  sellers: SellerCartWithTotals[];
  /** Where the estimate ships to: the buyer's default address; null when the buyer has none. */
  shippingAddressId: string | null;
  shippingCountry: string | null;
  /** What the buyer pays at checkout per currency: the breakdowns' totals (shipping counted where quoted). */
  grandTotals: Money[];
}

type CartData = Pick<Cart, 'buyerId' | 'updatedAt'> & { _id?: Types.ObjectId; items: CartItem[] };

export function toCartView(cart: CartData, offers: Map<string, OfferDetails>): CartContents {
  const groups = new Map<string, SellerCartView>();
  const lines: CartItemView[] = [];
  for (const item of cart.items) {
    const offer = offers.get(String(item.sellerSku));
    if (!offer) continue;
    const line = toItemView(item, offer);
    lines.push(line);
    groupOf(groups, offer).items.push(line);
  }
  const sellers = [...groups.values()].map((group) => ({ ...group, totals: sumByCurrency(group.items) }));
  return {
    id: cart._id ? String(cart._id) : null,
    buyerId: cart.buyerId,
    sellers,
    totals: sumByCurrency(lines),
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    updatedAt: cart.updatedAt ? cart.updatedAt.toISOString() : null,
  };
}

function toItemView(item: CartItem, offer: OfferDetails): CartItemView {
  return {
    id: String(item._id),
    sellerSkuId: String(offer._id),
    skuId: String(offer.sku._id),
    skuName: offer.sku.name,
    productId: String(offer.product._id),
    productName: offer.product.name,
    image: offer.product.images[0] ?? null,
    price: offer.price,
    currency: offer.currency,
    quantity: item.quantity,
    inStock: offer.quantity,
    total: offer.price * item.quantity,
    weightGrams: offer.sku.weightGrams ?? DEFAULT_ITEM_WEIGHT_GRAMS,
  };
}

function groupOf(groups: Map<string, SellerCartView>, offer: OfferDetails): SellerCartView {
  const key = String(offer.seller._id);
  let group = groups.get(key);
  if (!group) {
    group = { sellerId: key, sellerName: offer.seller.name, country: offer.seller.country, items: [], totals: [] };
    groups.set(key, group);
  }
  return group;
}

/** Integer minor units never lose precision when summed (up to 2^53). */
export function sumByCurrency(lines: Pick<CartItemView, 'currency' | 'total'>[]): Money[] {
  const totals = new Map<string, number>();
  for (const line of lines) totals.set(line.currency, (totals.get(line.currency) ?? 0) + line.total);
  return [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => ({ currency, amount }));
}

import request from 'supertest';
import { Role } from '../../../src/common/principal';
import { TestApp } from '../../support/test-app';
import { createAccount } from '../../auth/support/accounts';

export const ORDERS = 'orderServiceImpl';
export const CART = 'shoppingCartServiceImpl';

export interface Buyer {
  id: string;
  username: string;
  token: string;
}

export const GEO = 'geoLocationServiceImpl';

export interface AddressBody {
  id: string;
  street: string;
  houseNumber: string | null;
  city: string;
  postalCode: string;
  country: string;
}

/** A real USER account and a token for it, with an address (its default shipping address) unless `country` is null. */
export async function createBuyer(t: TestApp, country: string | null = 'NL'): Promise<Buyer> {
  const { user, username } = await createAccount(t);
  const id = String(user._id);
  const buyer = { id, username, token: t.tokenFor(Role.USER, { id, username }) };
  if (country) await giveAddress(t, buyer.token, country);
  return buyer;
}

/** Creates an address of the token's user through the geolocation bean; their newest is their default. */
export async function giveAddress(t: TestApp, token: string, country = 'NL', city = 'Delft'): Promise<AddressBody> {
  const address = { street: 'Oude Delft', houseNumber: '1', city, postalCode: '2611 BA', country };
  const { body } = await t.callBean(GEO, 'createAddress', [address], { token }).expect(200);
  return body as AddressBody;
}

/** The documented weight of an item whose SKU has none (DEFAULT_ITEM_WEIGHT_GRAMS of the delivery module). */
export const DEFAULT_ITEM_WEIGHT = 500;

/** An order's amounts by the checkout rule: VAT at `rate` % on goods and shipping, rounded half up once. */
export function withTax(subtotal: number, shipping: number, rate: number) {
  const tax = Math.round(((subtotal + shipping) * rate) / 100);
  return { subtotal, tax, total: subtotal + shipping + tax };
}

export interface RateQuery {
  fromCountry: string;
  toCountry: string;
  weightGrams: number;
  currency?: string;
}

/** The logistics provider's cheapest rate, asked through its public REST endpoint (undefined: no rate). */
export async function cheapestRate(t: TestApp, query: RateQuery): Promise<number | undefined> {
  const { body } = await t.http.post('/api/v1/delivery/rates').send(query).expect(200);
  const amounts = (body as { amount: number }[]).map((rate) => rate.amount);
  return amounts.length > 0 ? Math.min(...amounts) : undefined;
}

export function orderCall(t: TestApp, fn: string, args: unknown[], token?: string): request.Test {
  return t.callBean(ORDERS, fn, args, { token });
}

/** The buyer chooses the card (and more of the payment request) for their order. */
export function chooseCard(t: TestApp, buyer: Buyer, orderId: string, paymentMethodId: string, more: object = {}) {
  return orderCall(t, 'digitalOrderCheckout', [{ orderId, paymentMethodId, ...more }], buyer.token);
}

/**
 * Takes the buyer's checked-out order to PAID with a card that succeeds; an ADMIN approves it first. `more` adds to
 * the payment request, e.g. a shipping address, or another `paymentMethodId` (a 3-D Secure card leaves the order
 * PAYMENT_PENDING, with the challenge in `nextActionUrl`). The payment.
 */
/** Pays the buyer's order by card; an ADMIN approves it first where checkout left it NEW (`ORDER_APPROVAL=manual`). */
export async function payOrder(t: TestApp, buyer: Buyer, orderId: string, adminToken: string, more: object = {}) {
  const { body: order } = await orderCall(t, 'getOrder', [orderId], buyer.token).expect(200);
  if ((order as OrderBody).status === 'NEW') await orderCall(t, 'approve', [orderId], adminToken).expect(200);
  await chooseCard(t, buyer, orderId, 'pm_card_visa', more).expect(200);
  const { body: payment } = await orderCall(t, 'pay', [orderId], buyer.token).expect(200);
  return payment as { orderId: string; orderStatus: string; status: string; amount: number; nextActionUrl?: string };
}

/** Fills the buyer's cart and checks out; the created orders. */
export async function checkOut(t: TestApp, buyer: Buyer, items: { sellerSkuId: string; quantity: number }[]) {
  await t.callBean(CART, 'addCommerceItems', [{ items }], { token: buyer.token }).expect(200);
  const response = await orderCall(t, 'orderCheckout', [], buyer.token).expect(200);
  return response.body as OrderBody[];
}

export interface OrderBody {
  id: string;
  status: string;
  total: number;
  subtotal: number;
  tax: number;
  currencyCode: string;
  parcelId: string | null;
  paymentIntentId: string | null;
  paymentMethodId: string | null;
  shippingAddress: { name?: string; street?: string; city?: string; postalCode?: string; country?: string } | null;
  shipping: {
    service: string;
    amount: number;
    currency: string;
    fromCountry: string;
    toCountry: string;
    weightGrams: number;
  } | null;
  totals: { goods: number; shipping: number | null; tax: number; fees: number; total: number };
  embeddedBuyer: { userId: string };
  embeddedVendor: { sellerId: string; userId?: string };
  commerceItems: { id: string; sellerSkuId: string; quantity: number; total: number }[];
  orderTimeLines: { status: string; at: string; by: string }[];
}

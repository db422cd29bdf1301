import request from 'supertest';
import { TestApp } from '../../support/test-app';
import { Person } from './people';

export const ORDERS = 'orderServiceImpl';
export const CART = 'shoppingCartServiceImpl';
export const GEO = 'geoLocationServiceImpl';
export const OFFERS = '/api/v1/catalogue/offers';

export interface PostalAddress {
  name?: string;
  street: string;
  houseNumber?: string;
  postalCode: string;
  city: string;
  country: string;
}

export interface ShopOrder {
  id: string;
  status: string;
  total: number;
  currencyCode: string;
  parcelId: string | null;
  paymentIntentId: string | null;
  shippingAddress: PostalAddress | null;
  shipping: { amount: number; currency: string } | null;
  totals: { goods: number; shipping: number; tax: number; fees: number; total: number };
  commerceItems: { sellerSkuId: string; quantity: number }[];
  orderTimeLines: { status: string; at: string; by: string }[];
  refunds: { amount: number; status: string; restock: boolean; requestedBy: string }[];
}

export interface PaymentAnswer {
  orderId: string;
  orderStatus: string;
  paymentIntentId: string;
  status: string;
  amount: number;
  currency: string;
  nextActionUrl?: string;
}

export function orderCall(t: TestApp, fn: string, args: unknown[], person: Person): request.Test {
  return t.callBean(ORDERS, fn, args, { token: person.token });
}

export function asPerson(call: request.Test, person: Person): request.Test {
  return call.set('Authorization', `Bearer ${person.token}`);
}

/** The buyer's cart filled with `quantity` units of the offer. */
export async function putInCart(t: TestApp, buyer: Person, offerId: string, quantity: number): Promise<void> {
  const items = [{ sellerSkuId: offerId, quantity }];
  await t.callBean(CART, 'addCommerceItems', [{ items }], { token: buyer.token }).expect(200);
}

/** The buyer's one order from checking out a cart of one seller's offers. */
export async function onlyOrder(call: request.Test): Promise<ShopOrder> {
  const { body } = await call.expect(200);
  const orders = body as ShopOrder[];
  if (orders.length !== 1) throw new Error(`Expected one order, got ${orders.length}`);
  return orders[0];
}

export async function orderOf(t: TestApp, buyer: Person, orderId: string): Promise<ShopOrder> {
  return (await orderCall(t, 'getOrder', [orderId], buyer).expect(200)).body as ShopOrder;
}

/** The buyer chooses the card of their order and pays; the payment's answer. */
export async function payByCard(t: TestApp, buyer: Person, orderId: string, paymentMethodId: string) {
  await orderCall(t, 'digitalOrderCheckout', [{ orderId, paymentMethodId }], buyer).expect(200);
  return (await orderCall(t, 'pay', [orderId], buyer).expect(200)).body as PaymentAnswer;
}

/** A GET whose body is kept as raw bytes (a PDF download). */
export function download(t: TestApp, path: string, person: Person): request.Test {
  return asPerson(
    t.http
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      }),
    person,
  );
}

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

/** A real USER account and a token for it. */
export async function createBuyer(t: TestApp): Promise<Buyer> {
  const { user, username } = await createAccount(t);
  const id = String(user._id);
  return { id, username, token: t.tokenFor(Role.USER, { id, username }) };
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
export async function payOrder(t: TestApp, buyer: Buyer, orderId: string, adminToken: string, more: object = {}) {
  await orderCall(t, 'approve', [orderId], adminToken).expect(200);
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
  embeddedBuyer: { userId: string };
  embeddedVendor: { sellerId: string; userId?: string };
  commerceItems: { id: string; sellerSkuId: string; quantity: number; total: number }[];
  orderTimeLines: { status: string; at: string; by: string }[];
}

import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import { Connection, Model } from 'mongoose';
import request from 'supertest';
import { Order } from '../../src/services/orders/order.schema';
import { startTestApp, TestApp } from '../support/test-app';
import { Buyer, CART, createBuyer, orderCall } from '../orders/support/order-calls';
import {
  adjustStock,
  createOfferCall,
  createSellerAccount,
  createSku,
  OfferBody,
  SellerAccount,
  setStock,
  storedOffer,
} from './support/seller-offers';

const BUYERS = 20;

/**
 * 20 buyers check out one unit each while the seller edits the same offer's stock. Counted afterwards: every unit
 * is either available, or in an order (reserved), and the sum is what was there plus the seller's accepted edits;
 * and the storefront index shows the offer's last quantity (the seller's edits refresh it from sources read before
 * their update, which concurrent refreshes may have overtaken: the entries' version check must catch that).
 */
describe('offer stock under concurrent checkouts and seller edits', () => {
  let t: TestApp;
  let seller: SellerAccount;

  beforeAll(async () => {
    t = await startTestApp();
    seller = await createSellerAccount(t);
  });
  afterAll(() => t.stop());

  async function offerWith(onHand: number): Promise<OfferBody> {
    const sku = await createSku(t);
    const stock = [{ warehouseId: seller.warehouseId, quantity: onHand }];
    const body = { skuId: sku.skuId, price: 700, currency: 'EUR', stock };
    return (await createOfferCall(t, body, seller.token).expect(201)).body as OfferBody;
  }

  /** 20 buyers, each with one unit of the offer in their cart. */
  async function buyersWithOneUnit(offer: OfferBody): Promise<Buyer[]> {
    const buyers = await Promise.all(Array.from({ length: BUYERS }, () => createBuyer(t)));
    for (const buyer of buyers) {
      await t.callBean(CART, 'addCommerceItem', [offer.id], { token: buyer.token }).expect(200);
    }
    return buyers;
  }

  /**
   * Three seller loops editing the offer until every checkout has answered (each loop makes one round of `edits`
   * at least), so edits keep overlapping the checkouts' stock updates. Returns what each edit was and its answer.
   */
  async function editWhile<T>(checkouts: Promise<unknown>, edits: T[], send: (edit: T) => request.Test) {
    let settled = false;
    void checkouts.finally(() => (settled = true));
    const made: { edit: T; response: request.Response }[] = [];
    const loop = async (start: number) => {
      for (let i = 0; i < edits.length || !settled; i++) {
        const edit = edits[(start + i) % edits.length];
        made.push({ edit, response: await send(edit) });
      }
    };
    await Promise.all([0, 1, 2].map(loop));
    return made;
  }

  /** The quantity the product's all-currencies storefront entry shows for the offer. */
  async function indexedQuantity(offer: OfferBody): Promise<number | undefined> {
    const entry = await t.app
      .get<Connection>(getConnectionToken())
      .collection<{ _id: string; offers: { _id: unknown; quantity: number }[] }>('storefront_index')
      .findOne({ _id: offer.productId });
    return entry?.offers.find((shown) => String(shown._id) === offer.id)?.quantity;
  }

  async function unitsInOrders(offerId: string): Promise<number> {
    const orders = await t.app
      .get<Model<Order>>(getModelToken(Order.name))
      .find({ 'commerceItems.sellerSku': offerId })
      .lean();
    return orders
      .flatMap((order) => order.commerceItems)
      .filter((item) => String(item.sellerSku) === offerId)
      .reduce((sum, item) => sum + item.quantity, 0);
  }

  it('should neither oversell nor lose a unit when the seller adds and removes stock during 20 checkouts', async () => {
    const initial = 8;
    const offer = await offerWith(initial);
    const buyers = await buyersWithOneUnit(offer);
    const deltas = [3, -2, 4, -3, 2, -1, 5, -4, 1, -2];

    const checkingOut = Promise.all(buyers.map((buyer) => orderCall(t, 'orderCheckout', [], buyer.token)));
    const edits = await editWhile(checkingOut, deltas, (delta) =>
      adjustStock(t, offer.id, seller.warehouseId, delta, seller.token),
    );
    const checkouts = await checkingOut;

    expect(checkouts.filter((response) => ![200, 409].includes(response.status)).map((r) => r.body)).toEqual([]);
    expect(edits.every(({ response }) => [200, 409].includes(response.status))).toBe(true);
    const sold = checkouts.filter((response) => response.status === 200).length;
    const netEdits = edits.filter(({ response }) => response.status === 200).reduce((sum, { edit }) => sum + edit, 0);
    const final = await storedOffer(t, offer.id);
    const ordered = await unitsInOrders(offer.id);

    expect(ordered).toBe(sold);
    expect(final.quantity).toBeGreaterThanOrEqual(0);
    expect(final.quantity + ordered).toBe(initial + netEdits);
    expect(final.reserved).toBe(ordered);
    expect(final.stockByWarehouse).toEqual([expect.objectContaining({ onHand: initial + netEdits })]);
    expect(await indexedQuantity(offer)).toBe(final.quantity);
    // A removal refused with 409 was one that would have left fewer on hand than reserved.
    for (const { response } of edits.filter(({ response }) => response.status === 409)) {
      expect(response.body.message).toMatch(/reserved|only \d+ on hand/);
    }
  });

  it('should keep available + reserved equal to the units on hand when the seller sets stock during 20 checkouts', async () => {
    const offer = await offerWith(10);
    const buyers = await buyersWithOneUnit(offer);
    const targets = [12, 6, 15, 9, 20, 4, 11];

    const checkingOut = Promise.all(buyers.map((buyer) => orderCall(t, 'orderCheckout', [], buyer.token)));
    const edits = await editWhile(checkingOut, targets, (quantity) =>
      setStock(t, offer.id, seller.warehouseId, quantity, seller.token),
    );
    const checkouts = await checkingOut;

    const sold = checkouts.filter((response) => response.status === 200).length;
    const final = await storedOffer(t, offer.id);
    const ordered = await unitsInOrders(offer.id);
    const onHand = final.stockByWarehouse[0].onHand;
    const accepted = edits.filter(({ response }) => response.status === 200).map(({ edit }) => edit);

    expect(ordered).toBe(sold);
    expect(final.reserved).toBe(ordered);
    expect(final.quantity).toBeGreaterThanOrEqual(0);
    expect(final.quantity + ordered).toBe(onHand);
    expect([10, ...accepted]).toContain(onHand);
    expect(await indexedQuantity(offer)).toBe(final.quantity);
    expect(edits.every(({ response }) => [200, 409].includes(response.status))).toBe(true);
  });
});

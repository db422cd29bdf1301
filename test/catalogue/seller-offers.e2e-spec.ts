import { Role } from '../../src/common/principal';
import { LiveEvent } from '../../src/realtime/event-publisher';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';
import { CART, createBuyer, orderCall } from '../orders/support/order-calls';
import {
  addWarehouse,
  adjustStock,
  authed,
  createOfferCall,
  createOfferWithoutWarehouseStock,
  createSellerAccount,
  createSku,
  MY_OFFERS,
  OfferBody,
  patchOffer,
  SellerAccount,
  setStock,
} from './support/seller-offers';

const SEARCH = 'ecomRemainsSearchEngineServiceImpl';
const MISSING_ID = '0123456789abcdef01234567';

describe('seller offers (REST)', () => {
  let t: TestApp;
  let admin: string;
  let seller: SellerAccount;
  let other: SellerAccount;

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
    seller = await createSellerAccount(t);
    other = await createSellerAccount(t);
  });
  afterAll(() => t.stop());

  /** A new SKU and the seller's offer of it with `onHand` units at the seller's warehouse. */
  async function offerOf(owner: SellerAccount, onHand = 5, extra: object = {}) {
    const sku = await createSku(t);
    const body = {
      skuId: sku.skuId,
      price: 1250,
      currency: 'EUR',
      stock: [{ warehouseId: owner.warehouseId, quantity: onHand }],
    };
    const created = await createOfferCall(t, { ...body, ...extra }, owner.token).expect(201);
    return { sku, offer: created.body as OfferBody };
  }

  const productsNamed = async (name: string) =>
    ((await t.callBean(SEARCH, 'getProductsListByRequestFilter', [name]).expect(200)).body as { value: string }[]).map(
      (facet) => facet.value,
    );

  describe('a seller on their own offers', () => {
    it('should create an offer with stock at their warehouse, list it and edit it', async () => {
      const { sku, offer } = await offerOf(seller, 7);
      expect(offer).toEqual({
        id: expect.any(String),
        sellerId: seller.sellerId,
        skuId: sku.skuId,
        productId: sku.productId,
        price: 1250,
        currency: 'EUR',
        active: true,
        quantity: 7,
        reserved: 0,
        stockByWarehouse: [{ warehouseId: seller.warehouseId, onHand: 7 }],
      });

      const patched = await patchOffer(t, offer.id, { price: 990, currency: 'USD' }, seller.token).expect(200);
      expect(patched.body).toMatchObject({ price: 990, currency: 'USD', quantity: 7 });
      const set = await setStock(t, offer.id, seller.warehouseId, 3, seller.token).expect(200);
      expect(set.body).toMatchObject({
        quantity: 3,
        stockByWarehouse: [{ warehouseId: seller.warehouseId, onHand: 3 }],
      });
      const adjusted = await adjustStock(t, offer.id, seller.warehouseId, 4, seller.token).expect(200);
      expect(adjusted.body).toMatchObject({ quantity: 7, stockByWarehouse: [{ onHand: 7 }] });
      await adjustStock(t, offer.id, seller.warehouseId, -8, seller.token).expect(409);

      const listed = await authed(t.http.get(MY_OFFERS), seller.token).expect(200);
      expect(listed.body.items.map((item: OfferBody) => item.id)).toContain(offer.id);
      expect(listed.body.items.find((item: OfferBody) => item.id === offer.id)).toMatchObject({
        price: 990,
        quantity: 7,
      });
    });

    it('should page their offers and show none of another seller', async () => {
      const mine = await createSellerAccount(t);
      const ids = [(await offerOf(mine)).offer.id, (await offerOf(mine)).offer.id, (await offerOf(mine)).offer.id];
      await offerOf(other);
      const first = await authed(t.http.get(`${MY_OFFERS}?page=0&limit=2`), mine.token).expect(200);
      const second = await authed(t.http.get(`${MY_OFFERS}?page=1&limit=2`), mine.token).expect(200);
      expect(first.body).toMatchObject({ total: 3, page: 0, limit: 2 });
      expect(first.body.items).toHaveLength(2);
      expect(second.body.items).toHaveLength(1);
      const seen = [...first.body.items, ...second.body.items].map((item: OfferBody) => item.id);
      expect(seen.sort()).toEqual([...ids].sort());
    });

    it('should add stock at a second warehouse and keep quantity the sum on hand', async () => {
      const owner = await createSellerAccount(t);
      const { offer } = await offerOf(owner, 2);
      const second = await addWarehouse(t, owner.token, owner.sellerId);
      const response = await setStock(t, offer.id, second, 5, owner.token).expect(200);
      expect(response.body.quantity).toBe(7);
      expect(response.body.stockByWarehouse).toEqual([
        { warehouseId: owner.warehouseId, onHand: 2 },
        { warehouseId: second, onHand: 5 },
      ]);
    });

    it('should ignore figures a client may not set (quantity, reserved, operators) in a new offer', async () => {
      const sku = await createSku(t);
      const body = {
        skuId: sku.skuId,
        price: 100,
        currency: 'EUR',
        quantity: 1000,
        reserved: 99,
        $set: { quantity: 1000 },
        stock: [{ warehouseId: seller.warehouseId, quantity: 2 }],
      };
      const created = await createOfferCall(t, body, seller.token).expect(201);
      expect(created.body).toMatchObject({ quantity: 2, reserved: 0 });
    });

    it('should put all stock of an offer without warehouse stock at the first warehouse edited', async () => {
      const owner = await createSellerAccount(t);
      const adjusted = await createOfferWithoutWarehouseStock(t, owner.sellerId, 6);
      const replaced = await createOfferWithoutWarehouseStock(t, owner.sellerId, 6);
      const buyer = await createBuyer(t);
      const items = [adjusted, replaced].map((offer) => ({ sellerSkuId: offer.sellerSkuId, quantity: 2 }));
      await t.callBean(CART, 'addCommerceItems', [{ items }], { token: buyer.token }).expect(200);
      await orderCall(t, 'orderCheckout', [], buyer.token).expect(200);

      const plusOne = await adjustStock(t, adjusted.sellerSkuId, owner.warehouseId, 1, owner.token).expect(200);
      expect(plusOne.body).toMatchObject({ quantity: 5, reserved: 2, stockByWarehouse: [{ onHand: 7 }] });
      await setStock(t, replaced.sellerSkuId, owner.warehouseId, 1, owner.token).expect(409);
      const three = await setStock(t, replaced.sellerSkuId, owner.warehouseId, 3, owner.token).expect(200);
      expect(three.body).toMatchObject({ quantity: 1, reserved: 2, stockByWarehouse: [{ onHand: 3 }] });
    });

    it('should refuse a second offer of the same SKU with 409', async () => {
      const { sku } = await offerOf(seller);
      const again = await createOfferCall(t, { skuId: sku.skuId, price: 1, currency: 'EUR' }, seller.token).expect(409);
      expect(again.body.message).toContain('already offers');
    });
  });

  describe('access', () => {
    it("should refuse another seller's offer with 403", async () => {
      const { offer } = await offerOf(other);
      await patchOffer(t, offer.id, { price: 1 }, seller.token).expect(403);
      await setStock(t, offer.id, other.warehouseId, 1, seller.token).expect(403);
      await adjustStock(t, offer.id, other.warehouseId, 1, seller.token).expect(403);
      const sku = await createSku(t);
      const body = { sellerId: other.sellerId, skuId: sku.skuId, price: 1, currency: 'EUR' };
      await createOfferCall(t, body, seller.token).expect(403);
    });

    it('should answer a guest with 401', async () => {
      const { offer } = await offerOf(seller);
      const sku = await createSku(t);
      await t.http.get(MY_OFFERS).expect(401);
      await createOfferCall(t, { skuId: sku.skuId, price: 1, currency: 'EUR' }).expect(401);
      await patchOffer(t, offer.id, { price: 1 }).expect(401);
      await setStock(t, offer.id, seller.warehouseId, 1).expect(401);
      await adjustStock(t, offer.id, seller.warehouseId, 1).expect(401);
    });

    it('should let an ADMIN create and edit offers of any seller', async () => {
      const sku = await createSku(t);
      const body = { sellerId: other.sellerId, skuId: sku.skuId, price: 500, currency: 'JPY', active: false };
      const created = await createOfferCall(t, body, admin).expect(201);
      expect(created.body).toMatchObject({ sellerId: other.sellerId, active: false, quantity: 0 });
      await patchOffer(t, created.body.id, { active: true }, admin).expect(200);
      const stocked = await setStock(t, created.body.id, other.warehouseId, 4, admin).expect(200);
      expect(stocked.body).toMatchObject({ active: true, quantity: 4 });
      const withoutSeller = await createOfferCall(t, { skuId: sku.skuId, price: 1, currency: 'EUR' }, admin).expect(
        404,
      );
      expect(withoutSeller.body.message).toContain('give sellerId');
    });

    it('should answer a user acting for no seller with 404', async () => {
      const buyer = await createBuyer(t);
      await authed(t.http.get(MY_OFFERS), buyer.token).expect(404);
      const sku = await createSku(t);
      await createOfferCall(t, { skuId: sku.skuId, price: 1, currency: 'EUR' }, buyer.token).expect(404);
    });
  });

  describe('bad input', () => {
    const expectDesign400 = (body: Record<string, unknown>, path: string) => {
      expect(body).toMatchObject({ status: 400, error: 'Bad Request', path });
      expect(typeof body.message).toBe('string');
      expect(typeof body.timestamp).toBe('string');
      expect(typeof body.requestId).toBe('string');
      expect(JSON.stringify(body)).not.toContain('    at ');
    };

    it('should refuse malformed offers with 400 in the DESIGN §3 shape', async () => {
      const sku = await createSku(t);
      const valid = { skuId: sku.skuId, price: 100, currency: 'EUR' };
      const bad: object[] = [
        { ...valid, price: -1 },
        { ...valid, price: 1.5 },
        { ...valid, price: '100' },
        { ...valid, price: { $gt: 0 } },
        { ...valid, currency: 'eur' },
        { ...valid, currency: 'EURO' },
        { ...valid, currency: { $ne: null } },
        { ...valid, skuId: { $gt: '' } },
        { ...valid, skuId: 'abc' },
        { ...valid, sellerId: { $ne: null } },
        { ...valid, sellerId: null },
        { ...valid, active: 'yes' },
        { ...valid, stock: [{ warehouseId: seller.warehouseId, quantity: -1 }] },
        { ...valid, stock: [{ warehouseId: { $gt: '' }, quantity: 1 }] },
        { ...valid, stock: { warehouseId: seller.warehouseId, quantity: 1 } },
        {
          ...valid,
          stock: [
            { warehouseId: seller.warehouseId, quantity: 1 },
            { warehouseId: seller.warehouseId, quantity: 2 },
          ],
        },
        { price: 100, currency: 'EUR' },
      ];
      for (const body of bad) {
        const response = await createOfferCall(t, body, seller.token);
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
        expectDesign400(response.body, '/api/v1/catalogue/offers');
      }
      await createOfferCall(t, { ...valid, skuId: MISSING_ID }, seller.token).expect(404);
    });

    it('should refuse malformed edits, stock figures, ids and paging with 400', async () => {
      const { offer } = await offerOf(seller);
      for (const body of [
        {},
        { price: null },
        { price: -5 },
        { currency: 'x' },
        { active: 1 },
        { price: { $inc: 1 } },
      ]) {
        const response = await patchOffer(t, offer.id, body, seller.token);
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
        expectDesign400(response.body, `/api/v1/catalogue/offers/${offer.id}`);
      }
      for (const quantity of [-1, 1.5, '3', null, { $gt: 0 }]) {
        await setStock(t, offer.id, seller.warehouseId, quantity, seller.token).expect(400);
      }
      for (const delta of [0.5, 'x', { $inc: 1 }, undefined]) {
        await adjustStock(t, offer.id, seller.warehouseId, delta, seller.token).expect(400);
      }
      await patchOffer(t, 'not-an-id', { price: 1 }, seller.token).expect(400);
      await setStock(t, offer.id, 'not-an-id', 1, seller.token).expect(400);
      await patchOffer(t, MISSING_ID, { price: 1 }, seller.token).expect(404);
      for (const query of ['page=abc', 'page=-1', 'limit=0', 'limit=201', 'page=1&page=2', 'limit=1e2']) {
        const response = await authed(t.http.get(`${MY_OFFERS}?${query}`), seller.token);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
      }
    });

    it("should refuse a warehouse that is not the seller's with 400", async () => {
      const sku = await createSku(t);
      const body = {
        skuId: sku.skuId,
        price: 1,
        currency: 'EUR',
        stock: [{ warehouseId: other.warehouseId, quantity: 1 }],
      };
      const created = await createOfferCall(t, body, seller.token).expect(400);
      expect(created.body.message).toContain('is not an address of seller');
      const { offer } = await offerOf(seller);
      await setStock(t, offer.id, other.warehouseId, 1, seller.token).expect(400);
      await adjustStock(t, offer.id, MISSING_ID, 1, seller.token).expect(400);
    });
  });

  describe('live and in search at once', () => {
    it('should publish every change on /topic/catalogue as offer.changed, to guests too', async () => {
      const guest = await TestStompClient.connect(t.url);
      try {
        await guest.subscribe('/topic/catalogue');
        const { offer } = await offerOf(seller, 2);
        const created = await guest.next<LiveEvent>('/topic/catalogue', (e) => e.id === offer.id);
        expect(created).toMatchObject({ event: 'offer.changed', data: { id: offer.id, quantity: 2, active: true } });
        expect(created.data).not.toHaveProperty('stockByWarehouse');

        await patchOffer(t, offer.id, { price: 4321 }, seller.token).expect(200);
        const patched = await guest.next<LiveEvent>('/topic/catalogue', (e) => e.id === offer.id);
        expect(patched.data).toMatchObject({ price: 4321 });
        await setStock(t, offer.id, seller.warehouseId, 9, seller.token).expect(200);
        const stocked = await guest.next<LiveEvent>('/topic/catalogue', (e) => e.id === offer.id);
        expect(stocked.data).toMatchObject({ quantity: 9 });
      } finally {
        await guest.disconnect();
      }
    });

    it('should not let a client address a SHARED reply to the catalogue topic', async () => {
      const client = await TestStompClient.connect(t.url, { token: seller.token });
      try {
        await client.subscribe('/user/topic/default/json');
        const call = { beanId: SEARCH, functionName: 'getProductsListByRequestFilter', args: ['x'] };
        client.send('/request/bean', { ...call, actionId: 'spoof', eventType: 'SHARED', sharedEndpoint: 'catalogue' });
        const refusal = await client.next<{ actionId: string; status: number }>('/user/topic/default/json');
        expect(refusal).toMatchObject({ actionId: 'spoof', status: 403 });
      } finally {
        await client.disconnect();
      }
    });

    it('should show offers in search facets at once: created, out of stock, inactive', async () => {
      const { sku, offer } = await offerOf(seller, 3);
      expect(await productsNamed(sku.productName)).toEqual([sku.productId]);
      await setStock(t, offer.id, seller.warehouseId, 0, seller.token).expect(200);
      expect(await productsNamed(sku.productName)).toEqual([]);
      await adjustStock(t, offer.id, seller.warehouseId, 2, seller.token).expect(200);
      expect(await productsNamed(sku.productName)).toEqual([sku.productId]);
      await patchOffer(t, offer.id, { active: false }, seller.token).expect(200);
      expect(await productsNamed(sku.productName)).toEqual([]);
      const genetic = await t.callBean(SEARCH, 'getGeneticTypeFilter', [sku.skuId]).expect(200);
      expect(genetic.body).toEqual([]);
      await patchOffer(t, offer.id, { active: true }, seller.token).expect(200);
      expect(await productsNamed(sku.productName)).toEqual([sku.productId]);
    });
  });

  describe('inactive offers and reservations', () => {
    it('should refuse an inactive offer in the cart and at checkout with 409', async () => {
      const { offer } = await offerOf(seller, 5);
      const buyer = await createBuyer(t);
      await t
        .callBean(CART, 'addCommerceItem', [{ sellerSkuId: offer.id, quantity: 1 }], { token: buyer.token })
        .expect(200);
      await patchOffer(t, offer.id, { active: false }, seller.token).expect(200);

      const cart = await t.callBean(CART, 'getCartDTO', [], { token: buyer.token }).expect(200);
      expect(cart.body.itemCount).toBe(0);
      await orderCall(t, 'orderCheckout', [], buyer.token).expect(409);
      const direct = { commerceItems: [{ sellerSkuId: offer.id, quantity: 1 }] };
      const refusedDirect = await orderCall(t, 'digitalOrderCheckout', [direct], buyer.token).expect(409);
      expect(refusedDirect.body.message).toContain('not for sale');
      const late = await createBuyer(t);
      const refused = await t
        .callBean(CART, 'addCommerceItem', [{ sellerSkuId: offer.id, quantity: 1 }], { token: late.token })
        .expect(409);
      expect(refused.body.message).toContain('not for sale');
      expect((await t.callBean(CART, 'canAddItem', [offer.id], { token: late.token }).expect(200)).body).toBe(false);

      await patchOffer(t, offer.id, { active: true }, seller.token).expect(200);
      await t
        .callBean(CART, 'addCommerceItem', [{ sellerSkuId: offer.id, quantity: 1 }], { token: late.token })
        .expect(200);
      await orderCall(t, 'orderCheckout', [], late.token).expect(200);
    });

    it('should never set on-hand below what open orders reserved (409), and free it when the order is removed', async () => {
      const { offer } = await offerOf(seller, 5);
      const buyer = await createBuyer(t);
      await t
        .callBean(CART, 'addCommerceItem', [{ sellerSkuId: offer.id, quantity: 3 }], { token: buyer.token })
        .expect(200);
      const [order] = (await orderCall(t, 'orderCheckout', [], buyer.token).expect(200)).body as { id: string }[];

      const mine = await authed(t.http.get(MY_OFFERS), seller.token).expect(200);
      expect(mine.body.items.find((item: OfferBody) => item.id === offer.id)).toMatchObject({
        quantity: 2,
        reserved: 3,
      });
      const refused = await setStock(t, offer.id, seller.warehouseId, 2, seller.token).expect(409);
      expect(refused.body).toMatchObject({ status: 409, error: 'Conflict' });
      expect(refused.body.message).toContain('reserved 3 units');
      await adjustStock(t, offer.id, seller.warehouseId, -3, seller.token).expect(409);
      const lowest = await setStock(t, offer.id, seller.warehouseId, 3, seller.token).expect(200);
      expect(lowest.body).toMatchObject({ quantity: 0, reserved: 3 });

      await orderCall(t, 'removeOrder', [order.id], admin).expect(200);
      const after = await authed(t.http.get(MY_OFFERS), seller.token).expect(200);
      expect(after.body.items.find((item: OfferBody) => item.id === offer.id)).toMatchObject({
        quantity: 3,
        reserved: 0,
      });
    });

    it('should take shipped units off hand at the fullest warehouse, leaving what is available', async () => {
      const owner = await createSellerAccount(t);
      const { offer } = await offerOf(owner, 1);
      const second = await addWarehouse(t, owner.token, owner.sellerId);
      await setStock(t, offer.id, second, 4, owner.token).expect(200);
      const buyer = await createBuyer(t);
      const item = { sellerSkuId: offer.id, quantity: 2 };
      await t.callBean(CART, 'addCommerceItem', [item], { token: buyer.token }).expect(200);
      const [order] = (await orderCall(t, 'orderCheckout', [], buyer.token).expect(200)).body as { id: string }[];
      // Orders may be approved at checkout (ORDER_APPROVAL); otherwise an ADMIN approves.
      const placed = await orderCall(t, 'getOrder', [order.id], buyer.token).expect(200);
      if (placed.body.status === 'NEW') await orderCall(t, 'approve', [order.id], admin).expect(200);
      const address = { name: 'Ann', street: 'Canal Street', city: 'Amsterdam', postalCode: '1011AA', country: 'NL' };
      const choice = { orderId: order.id, paymentMethodId: 'pm_card_visa', shippingAddress: address };
      await orderCall(t, 'digitalOrderCheckout', [choice], buyer.token).expect(200);
      await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
      const before = (await authed(t.http.get(MY_OFFERS), owner.token).expect(200)).body.items[0] as OfferBody;
      expect(before).toMatchObject({ quantity: 3, reserved: 2 });

      await orderCall(t, 'ship', [order.id], admin).expect(200);

      const shipped = (await authed(t.http.get(MY_OFFERS), owner.token).expect(200)).body.items[0] as OfferBody;
      expect(shipped).toMatchObject({ quantity: 3, reserved: 0 });
      expect(shipped.stockByWarehouse).toEqual([
        { warehouseId: owner.warehouseId, onHand: 1 },
        { warehouseId: second, onHand: 2 },
      ]);
    });
  });
});

import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import { Connection, Model } from 'mongoose';
import { Role } from '../../src/common/principal';
import { SellerSku } from '../../src/services/catalogue/seller-sku.schema';
import { startTestApp, TestApp } from '../support/test-app';
import { demo, inStockOffers, productOf } from './support/demo-facets';

const BEAN = 'shoppingCartServiceImpl';
const MISSING_ID = '0123456789abcdef01234567';
type Item = { id: string; sellerSkuId: string; quantity: number; price: number; total: number; inStock: number };
type Cart = {
  id: string | null;
  buyerId: string;
  sellers: { sellerId: string; items: Item[]; totals: { currency: string; amount: number }[] }[];
  totals: { currency: string; amount: number }[];
  itemCount: number;
};

const offers = inStockOffers();
/** In stock (at least 3), EUR, and one of another seller in another currency. */
const eur = offers.find((offer) => offer.currency === 'EUR' && offer.quantity >= 3)!;
const jpy = offers.find((offer) => offer.currency === 'JPY' && offer.quantity >= 2)!;
const soldOut = demo.sellerSkus.find((offer) => offer.quantity === 0 && productOf(offer).published)!;
const draft = demo.sellerSkus.find((offer) => offer.quantity > 0 && !productOf(offer).published)!;
const id = (offer: { _id: unknown }) => String(offer._id);
const items = (cart: Cart) => cart.sellers.flatMap((seller) => seller.items);

describe('shoppingCartServiceImpl', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
    admin = t.tokenFor(Role.ADMIN);
  });

  afterAll(() => t.stop());

  const call = (fn: string, args: unknown[], token?: string) => t.callBean(BEAN, fn, args, { token });
  const cartOf = async (fn: string, args: unknown[], token: string): Promise<Cart> => {
    const response = await call(fn, args, token);
    expect(response.status).toBe(200);
    return response.body;
  };
  let buyers = 0;
  /** A token of a new USER account, so a fresh cart. */
  const newBuyer = async (username = 'buyer') =>
    (await t.createUser({ username: `${username}-${++buyers}`, role: Role.USER })).token;

  describe('as a GUEST', () => {
    it.each([
      ['getCartDTO', []],
      ['addCommerceItem', [id(eur)]],
      ['addCommerceItem', [{ sellerSkuId: id(eur) }]],
      ['addCommerceItems', [{ items: [{ sellerSkuId: id(eur) }] }]],
      ['removeCommerceItem', [MISSING_ID]],
      ['clearCart', []],
      ['decreaseQuantity', [MISSING_ID]],
      ['updateQuantity', [MISSING_ID, '2']],
      ['increaseQuantity', [MISSING_ID]],
      ['canAddItem', [id(eur)]],
    ])('should get null from %s', async (fn, args) => {
      const response = await call(fn, args).expect(200);
      expect(response.body).toBeNull();
    });

    it("should not read a buyer's cart", async () => {
      await call('getCartDTO', ['someone']).expect(401);
    });
  });

  describe('adding items', () => {
    it('should start with an empty cart', async () => {
      const cart = await cartOf('getCartDTO', [], await newBuyer());
      expect(cart).toMatchObject({ id: null, sellers: [], totals: [], itemCount: 0 });
    });

    it('should add by seller SKU id and by map, merging lines, with totals in minor units', async () => {
      const buyer = await newBuyer();
      await cartOf('addCommerceItem', [id(eur)], buyer);
      const cart = await cartOf('addCommerceItem', [{ sellerSkuId: id(eur), quantity: 2 }], buyer);
      expect(items(cart)).toEqual([expect.objectContaining({ sellerSkuId: id(eur), quantity: 3, price: eur.price })]);
      expect(cart.totals).toEqual([{ currency: 'EUR', amount: eur.price * 3 }]);
      expect(cart.itemCount).toBe(3);
      expect(Number.isInteger(cart.totals[0].amount)).toBe(true);
    });

    it('should group lines by seller with totals per currency', async () => {
      const buyer = await newBuyer();
      const both = [{ sellerSkuId: id(eur) }, { sellerSkuId: id(jpy), quantity: 2 }];
      const cart = await cartOf('addCommerceItems', [{ items: both }], buyer);
      const sellerIds = cart.sellers.map((seller) => seller.sellerId);
      expect(sellerIds.sort()).toEqual([String(eur.seller), String(jpy.seller)].sort());
      expect(cart.totals).toEqual([
        { currency: 'EUR', amount: eur.price },
        { currency: 'JPY', amount: jpy.price * 2 },
      ]);
      const japanese = cart.sellers.find((seller) => seller.sellerId === String(jpy.seller))!;
      expect(japanese.totals).toEqual([{ currency: 'JPY', amount: jpy.price * 2 }]);
    });

    it('should never hold more than the stock (409), and canAddItem agrees', async () => {
      const buyer = await newBuyer();
      await cartOf('addCommerceItem', [{ sellerSkuId: id(eur), quantity: eur.quantity - 1 }], buyer);
      expect((await call('canAddItem', [id(eur)], buyer).expect(200)).body).toBe(true);
      await cartOf('addCommerceItem', [id(eur)], buyer);
      expect((await call('canAddItem', [id(eur)], buyer).expect(200)).body).toBe(false);
      const refused = await call('addCommerceItem', [id(eur)], buyer).expect(409);
      expect(refused.body.error).toBe('Conflict');
      await call('addCommerceItem', [{ sellerSkuId: id(eur), quantity: eur.quantity + 1 }], await newBuyer()).expect(
        409,
      );
      expect(items(await cartOf('getCartDTO', [], buyer))[0].quantity).toBe(eur.quantity);
    });

    it('should stay within stock under concurrent additions', async () => {
      const buyer = await newBuyer();
      const responses = await Promise.all(
        Array.from({ length: eur.quantity + 4 }, () => call('addCommerceItem', [id(eur)], buyer)),
      );
      const added = responses.filter((response) => response.status === 200).length;
      expect(responses.every((response) => [200, 409].includes(response.status))).toBe(true);
      const cart = await cartOf('getCartDTO', [], buyer);
      expect(items(cart)[0].quantity).toBe(added);
      expect(added).toBeLessThanOrEqual(eur.quantity);
    });

    it('should refuse sold-out, unpublished and unknown offers, as canAddItem predicts', async () => {
      const buyer = await newBuyer();
      for (const [offerId, status] of [
        [id(soldOut), 409],
        [id(draft), 404],
        [MISSING_ID, 404],
      ] as const) {
        expect((await call('canAddItem', [offerId], buyer).expect(200)).body).toBe(false);
        await call('addCommerceItem', [offerId], buyer).expect(status);
      }
      await call('canAddItem', ['nope'], buyer).expect(400);
      await call('addCommerceItem', ['nope'], buyer).expect(400);
    });

    it('should validate the item maps and apply addCommerceItems all or nothing', async () => {
      const buyer = await newBuyer();
      await call('addCommerceItem', [{ sellerSkuId: id(eur), quantity: 0 }], buyer).expect(400);
      await call('addCommerceItem', [{ sellerSkuId: id(eur), quantity: 1.5 }], buyer).expect(400);
      await call('addCommerceItem', [{ quantity: 1 }], buyer).expect(400);
      await call('addCommerceItems', [{ items: [] }], buyer).expect(400);
      const tooMany = [{ sellerSkuId: id(jpy) }, { sellerSkuId: id(eur), quantity: eur.quantity + 1 }];
      await call('addCommerceItems', [{ items: tooMany }], buyer).expect(409);
      expect((await cartOf('getCartDTO', [], buyer)).itemCount).toBe(0);
    });
  });

  describe('changing quantities', () => {
    it('should increase, decrease and update within stock', async () => {
      const buyer = await newBuyer();
      const line = items(await cartOf('addCommerceItem', [id(eur)], buyer))[0];
      expect(items(await cartOf('increaseQuantity', [line.id], buyer))[0].quantity).toBe(2);
      expect(items(await cartOf('decreaseQuantity', [line.id], buyer))[0].quantity).toBe(1);
      const full = await cartOf('updateQuantity', [line.id, String(eur.quantity)], buyer);
      expect(items(full)[0].quantity).toBe(eur.quantity);
      await call('increaseQuantity', [line.id], buyer).expect(409);
      await call('updateQuantity', [line.id, String(eur.quantity + 1)], buyer).expect(409);
      await call('updateQuantity', [line.id, '-1'], buyer).expect(400);
      await call('updateQuantity', [line.id, 'two'], buyer).expect(400);
      expect(items(await cartOf('updateQuantity', [line.id, '1'], buyer))[0].quantity).toBe(1);
      expect(items(await cartOf('decreaseQuantity', [line.id], buyer))).toEqual([]);
    });

    it('should 404 unknown items and 400 malformed ids', async () => {
      const buyer = await newBuyer();
      await cartOf('addCommerceItem', [id(eur)], buyer);
      for (const fn of ['increaseQuantity', 'decreaseQuantity', 'removeCommerceItem']) {
        await call(fn, [MISSING_ID], buyer).expect(404);
        await call(fn, ['x'], buyer).expect(400);
      }
      await call('updateQuantity', [MISSING_ID, '1'], buyer).expect(404);
    });

    it('should remove lines and clear the cart', async () => {
      const buyer = await newBuyer();
      const both = [{ sellerSkuId: id(eur) }, { sellerSkuId: id(jpy) }];
      const cart = await cartOf('addCommerceItems', [{ items: both }], buyer);
      const [first] = items(cart);
      expect(items(await cartOf('removeCommerceItem', [first.id], buyer))).toHaveLength(1);
      expect((await call('clearCart', [], buyer).expect(200)).body).toBeNull();
      expect((await cartOf('getCartDTO', [], buyer)).itemCount).toBe(0);
    });

    it('should cut lines back when stock falls after they were added', async () => {
      const buyer = await newBuyer();
      await cartOf('addCommerceItem', [{ sellerSkuId: id(jpy), quantity: 2 }], buyer);
      const stock = t.app.get<Model<SellerSku>>(getModelToken(SellerSku.name));
      await stock.updateOne({ _id: jpy._id }, { $set: { quantity: 1 } });
      try {
        const cart = await cartOf('getCartDTO', [], buyer);
        expect(items(cart)[0]).toMatchObject({ quantity: 1, inStock: 1 });
      } finally {
        await stock.updateOne({ _id: jpy._id }, { $set: { quantity: jpy.quantity } });
      }
    });
  });

  describe('access to other carts', () => {
    it("should let an ADMIN read any buyer's cart and refuse a USER", async () => {
      const { id: buyerId, token: buyer } = await t.createUser({ username: 'buyer42', role: Role.USER });
      await cartOf('addCommerceItem', [id(eur)], buyer);
      const seen = await cartOf('getCartDTO', [buyerId], admin);
      expect(seen).toMatchObject({ buyerId, itemCount: 1 });
      const other = await call('getCartDTO', [buyerId], await newBuyer('snoop')).expect(403);
      expect(other.body.error).toBe('Access denied');
      await call('getCartDTO', ['nobody'], admin).expect(404);
      await call('getCartDTO', [''], admin).expect(400);
      const { id: empty } = await t.createUser({ username: 'no-cart-yet', role: Role.USER });
      expect(await cartOf('getCartDTO', [empty], admin)).toMatchObject({ buyerId: empty, itemCount: 0 });
    });

    it("should keep each buyer's cart to themselves", async () => {
      const first = await newBuyer();
      await cartOf('addCommerceItem', [id(eur)], first);
      expect((await cartOf('getCartDTO', [], await newBuyer())).itemCount).toBe(0);
    });

    it('should record cart changes as customer activity', async () => {
      const { id: buyerId, token } = await t.createUser({ username: 'active', role: Role.USER });
      await cartOf('addCommerceItem', [id(eur)], token);
      const activities = t.app.get<Connection>(getConnectionToken()).collection('customer_activities');
      for (let i = 0; i < 20 && !(await activities.findOne({ customerId: buyerId })); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await activities.findOne({ customerId: buyerId })).toMatchObject({ type: 'CART_CHANGE' });
    });
  });
});

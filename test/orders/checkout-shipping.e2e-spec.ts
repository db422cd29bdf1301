import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';
import {
  AddressBody,
  Buyer,
  CART,
  cheapestRate,
  chooseCard,
  createBuyer,
  DEFAULT_ITEM_WEIGHT,
  GEO,
  giveAddress,
  OrderBody,
  orderCall,
} from './support/order-calls';
import { createOffer, Offer, stockOf } from './support/order-fixtures';

const TAX = 21;
const FEE = 10;

interface Breakdown {
  currency: string;
  goods: number;
  shipping: number | null;
  tax: number;
  fees: number;
  total: number;
  shippingNote: string | null;
}

/** Checkout and cart totals with shipping: the buyer's address, the carrier's rate, VAT and fees per seller. */
describe('Checkout with shipping address and logistics rate', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { ORDER_TAX_RATE: String(TAX), ORDER_SERVICE_FEE_RATE: String(FEE) } });
    admin = t.tokenFor(Role.ADMIN);
  });

  afterAll(async () => {
    await t.stop();
  });

  const fill = (buyer: Buyer, items: { sellerSkuId: string; quantity: number }[]) =>
    t.callBean(CART, 'addCommerceItems', [{ items }], { token: buyer.token }).expect(200);
  const cartOf = async (buyer: Buyer) => (await t.callBean(CART, 'getCartDTO', [], { token: buyer.token })).body;
  const checkoutTo = (buyer: Buyer, destination: unknown) =>
    orderCall(t, 'orderCheckoutTo', [destination], buyer.token);
  const ordersOf = async (buyer: Buyer): Promise<OrderBody[]> =>
    (await orderCall(t, 'getOrdersFromLoggedUser', [], buyer.token).expect(200)).body;

  /** The totals rule: VAT on goods and shipping, the fee on goods (borne by the seller), total = goods+shipping+VAT. */
  function expectTotals(order: OrderBody, goods: number, shipping: number): void {
    const tax = Math.round(((goods + shipping) * TAX) / 100);
    const totals = { goods, shipping, tax, fees: Math.round((goods * FEE) / 100), total: goods + shipping + tax };
    expect(order.totals).toEqual(totals);
    expect(order).toMatchObject({ subtotal: goods, tax, total: totals.total });
  }

  function expectBadRequest(body: Record<string, unknown>, message: RegExp): void {
    expect(body).toMatchObject({ status: 400, error: 'Bad Request', path: '/api/v1/bean/request' });
    expect(body.timestamp).toEqual(expect.any(String));
    expect(body.requestId).toEqual(expect.any(String));
    expect(`${String(body.message)} ${JSON.stringify(body.details ?? '')}`).toMatch(message);
  }

  it('should ship each seller order to the default address at the rate the provider quotes, cart and order alike', async () => {
    const buyer = await createBuyer(t, null);
    await giveAddress(t, buyer.token, 'BE', 'Gent');
    const home = await giveAddress(t, buyer.token, 'FR', 'Lyon');
    const fern = await createOffer(t, { price: 1299, weightGrams: 1200 });
    const moss = await createOffer(t, { price: 450, sellerCountry: 'FR' });
    await fill(buyer, [
      { sellerSkuId: fern.sellerSkuId, quantity: 2 },
      { sellerSkuId: moss.sellerSkuId, quantity: 3 },
    ]);
    const fernRate = (await cheapestRate(t, { fromCountry: 'NL', toCountry: 'FR', weightGrams: 2400 }))!;
    const mossRate = (await cheapestRate(t, {
      fromCountry: 'FR',
      toCountry: 'FR',
      weightGrams: 3 * DEFAULT_ITEM_WEIGHT,
    }))!;
    expect(fernRate).not.toBe(mossRate);

    const cart = await cartOf(buyer);
    expect(cart).toMatchObject({ shippingAddressId: home.id, shippingCountry: 'FR' });
    const breakdownOf = (offer: Offer): Breakdown =>
      cart.sellers.find((seller: { sellerId: string }) => seller.sellerId === offer.sellerId).breakdown[0];
    expect(breakdownOf(fern)).toMatchObject({ currency: 'EUR', goods: 2598, shipping: fernRate, shippingNote: null });
    expect(breakdownOf(moss)).toMatchObject({ goods: 1350, shipping: mossRate });

    const { body: orders } = await orderCall(t, 'orderCheckout', [], buyer.token).expect(200);
    expect(orders).toHaveLength(2);
    const orderOf = (offer: Offer): OrderBody =>
      orders.find((order: OrderBody) => order.embeddedVendor.sellerId === offer.sellerId);
    for (const [offer, goods, rate] of [
      [fern, 2598, fernRate],
      [moss, 1350, mossRate],
    ] as const) {
      const order = orderOf(offer);
      expect(order.shippingAddress).toMatchObject({ name: buyer.username, city: 'Lyon', country: 'FR' });
      expect(order.shipping).toMatchObject({ amount: rate, currency: 'EUR', toCountry: 'FR' });
      expectTotals(order, goods, rate);
      const { goods: g, shipping, tax, fees, total } = breakdownOf(offer);
      expect({ goods: g, shipping, tax, fees, total }).toEqual(order.totals);
    }
    expect(orderOf(fern).shipping).toMatchObject({ fromCountry: 'NL', weightGrams: 2400 });
    expect(orderOf(moss).shipping).toMatchObject({ fromCountry: 'FR', weightGrams: 3 * DEFAULT_ITEM_WEIGHT });
    expect((await cartOf(buyer)).itemCount).toBe(0);
  });

  it('should take the newest saved own address as default, never a warehouse, and ship from the warehouse country', async () => {
    const buyer = await createBuyer(t, null);
    const older = await giveAddress(t, buyer.token, 'DE', 'Bonn');
    await giveAddress(t, buyer.token, 'BE', 'Gent');
    await t.callBean(GEO, 'saveAddress', [{ ...older, city: 'Berlin' }], { token: buyer.token }).expect(200);
    // The buyer also acts for a seller whose warehouse (an address the buyer's user owns, created last) is in FR.
    const offer = await createOffer(t, { price: 600, sellerUser: buyer, sellerCountry: 'FR' });
    const warehouse = { street: 'Rue des Serres', city: 'Angers', postalCode: '49000', country: 'FR' };
    await t.callBean(GEO, 'addShippingAddress', [offer.sellerId, warehouse], { token: buyer.token }).expect(200);

    expect((await cartOf(buyer)).shippingAddressId).toBe(older.id);
    await fill(buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    const [order] = (await orderCall(t, 'orderCheckout', [], buyer.token).expect(200)).body as OrderBody[];
    expect(order.shippingAddress).toMatchObject({ city: 'Berlin', country: 'DE' });
    const rate = await cheapestRate(t, { fromCountry: 'FR', toCountry: 'DE', weightGrams: DEFAULT_ITEM_WEIGHT });
    expect(order.shipping).toMatchObject({ fromCountry: 'FR', toCountry: 'DE', amount: rate });
  });

  it('should refuse a checkout without any address (409), leaving cart and stock, and show shipping null in the cart', async () => {
    const buyer = await createBuyer(t, null);
    const offer = await createOffer(t, { price: 800 });
    await fill(buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    const cart = await cartOf(buyer);
    expect(cart).toMatchObject({ shippingAddressId: null, shippingCountry: null });
    expect(cart.sellers[0].breakdown[0]).toMatchObject({ goods: 800, shipping: null, total: 968 });
    expect(cart.sellers[0].breakdown[0].shippingNote).toMatch(/No default shipping address/);

    const { body } = await orderCall(t, 'orderCheckout', [], buyer.token).expect(409);
    expect(body.message).toMatch(/No shipping address/);
    expect(await stockOf(t, offer.sellerSkuId)).toBe(10);
    expect((await cartOf(buyer)).itemCount).toBe(1);
    expect(await ordersOf(buyer)).toEqual([]);
  });

  it('should check out to one of the buyer own addresses, or to an address given inline', async () => {
    const buyer = await createBuyer(t, null);
    const chosen = await giveAddress(t, buyer.token, 'DE', 'Köln');
    await giveAddress(t, buyer.token, 'NL', 'Delft');
    const offer = await createOffer(t, { price: 1000 });

    await fill(buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    const { body: toBook } = await checkoutTo(buyer, { addressId: chosen.id }).expect(200);
    const rateDe = (await cheapestRate(t, { fromCountry: 'NL', toCountry: 'DE', weightGrams: DEFAULT_ITEM_WEIGHT }))!;
    expect(toBook[0].shippingAddress).toMatchObject({ city: 'Köln', postalCode: chosen.postalCode, country: 'DE' });
    expectTotals(toBook[0], 1000, rateDe);

    await fill(buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    const address = { name: 'Ann Smith', street: 'Via Roma', houseNumber: '5', postalCode: '00184', city: 'Roma' };
    const { body: inline } = await checkoutTo(buyer, { address: { ...address, country: 'it' } }).expect(200);
    const rateIt = (await cheapestRate(t, { fromCountry: 'NL', toCountry: 'IT', weightGrams: DEFAULT_ITEM_WEIGHT }))!;
    expect(inline[0].shippingAddress).toMatchObject({ ...address, country: 'IT' });
    expectTotals(inline[0], 1000, rateIt);
  });

  it('should refuse bad destinations with 400: another user address, both, neither, a bad country or shape', async () => {
    const [buyer, other] = [await createBuyer(t), await createBuyer(t)];
    const othersAddress: AddressBody = await giveAddress(t, other.token, 'NL');
    const offer = await createOffer(t);
    await fill(buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    const address = { name: 'Ann', street: 'Main', postalCode: '1011', city: 'Amsterdam', country: 'NL' };

    const foreign = (await checkoutTo(buyer, { addressId: othersAddress.id }).expect(400)).body;
    const unknownId = '0123456789abcdef01234567';
    const unknown = (await checkoutTo(buyer, { addressId: unknownId }).expect(400)).body;
    expectBadRequest(foreign, /^Unknown address/);
    expect(foreign.message.replace(othersAddress.id, '')).toBe(unknown.message.replace(unknownId, ''));

    const both = { addressId: othersAddress.id, address };
    expectBadRequest((await checkoutTo(buyer, both).expect(400)).body, /exactly one of addressId and address/);
    expectBadRequest((await checkoutTo(buyer, {}).expect(400)).body, /exactly one of addressId and address/);
    const badCountries = ['XX', 'NLD', 7];
    for (const country of badCountries) {
      expectBadRequest((await checkoutTo(buyer, { address: { ...address, country } }).expect(400)).body, /country/i);
    }
    const { city: _city, ...withoutCity } = address;
    expectBadRequest((await checkoutTo(buyer, { address: withoutCity }).expect(400)).body, /city/);
    expectBadRequest((await checkoutTo(buyer, { addressId: { $ne: null } }).expect(400)).body, /addressId/);
    expectBadRequest((await checkoutTo(buyer, { address: 'Main 1' }).expect(400)).body, /address/);

    expect(await stockOf(t, offer.sellerSkuId)).toBe(10);
    expect(await ordersOf(buyer)).toEqual([]);
    await t.callBean('orderServiceImpl', 'orderCheckoutTo', [{ address }]).expect(401);
  });

  it('should refuse a route the provider does not serve with 409 naming the seller, all or nothing', async () => {
    const buyer = await createBuyer(t, 'NL');
    const served = await createOffer(t, { price: 700 });
    const remote = await createOffer(t, { price: 900, sellerCountry: 'AQ' });
    expect(await cheapestRate(t, { fromCountry: 'AQ', toCountry: 'NL', weightGrams: DEFAULT_ITEM_WEIGHT })).toBe(
      undefined,
    );
    await fill(buyer, [
      { sellerSkuId: served.sellerSkuId, quantity: 2 },
      { sellerSkuId: remote.sellerSkuId, quantity: 1 },
    ]);
    const cart = await cartOf(buyer);
    const remoteTotals = cart.sellers.find((s: { sellerId: string }) => s.sellerId === remote.sellerId).breakdown[0];
    expect(remoteTotals).toMatchObject({ shipping: null, shippingNote: expect.stringContaining('does not ship') });

    const { body } = await orderCall(t, 'orderCheckout', [], buyer.token).expect(409);
    expect(body.message).toContain(remote.sellerId);
    expect(body.message).toContain('does not ship to NL');
    expect([await stockOf(t, served.sellerSkuId), await stockOf(t, remote.sellerSkuId)]).toEqual([10, 10]);
    expect(await ordersOf(buyer)).toEqual([]);
    expect((await cartOf(buyer)).itemCount).toBe(3);

    const inline = { name: 'Ann', street: 'Ice Shelf', postalCode: '0', city: 'McMurdo', country: 'AQ' };
    await t.callBean(CART, 'clearCart', [], { token: buyer.token }).expect(200);
    await fill(buyer, [{ sellerSkuId: served.sellerSkuId, quantity: 1 }]);
    expect((await checkoutTo(buyer, { address: inline }).expect(409)).body.message).toContain(served.sellerId);
    expect(await stockOf(t, served.sellerSkuId)).toBe(10);
  });

  it('should charge the total with shipping and ship the paid order with no admin step on the address', async () => {
    const buyer = await createBuyer(t, 'BE');
    const offer = await createOffer(t, { price: 2000, weightGrams: 2500 });
    await fill(buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    const [order] = (await orderCall(t, 'orderCheckout', [], buyer.token).expect(200)).body as OrderBody[];
    const rate = (await cheapestRate(t, { fromCountry: 'NL', toCountry: 'BE', weightGrams: 2500 }))!;
    expectTotals(order, 2000, rate);

    // Approval is the lifecycle's business: an order still NEW is approved by an ADMIN as before.
    if (order.status === 'NEW') await orderCall(t, 'approve', [order.id], admin).expect(200);
    await chooseCard(t, buyer, order.id, 'pm_card_visa').expect(200);
    const { body: payment } = await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    expect(payment).toMatchObject({ status: 'SUCCEEDED', orderStatus: 'PAID', amount: order.total, currency: 'EUR' });

    await orderCall(t, 'ship', [order.id], admin).expect(200, 'true');
    const { body: shipped } = await orderCall(t, 'getOrder', [order.id], buyer.token).expect(200);
    expect(shipped.status).toBe('SHIPPED');
    const parcel = await t.http
      .get(`/api/v1/delivery/parcels/${shipped.parcelId}`)
      .set('Authorization', `Bearer ${admin}`)
      .expect(200);
    expect(parcel.body.address).toMatchObject({ name: buyer.username, country: 'BE', city: 'Delft' });
    expect(parcel.body.package).toMatchObject({ weightGrams: 2500 });
  });

  it('should quote again when the buyer changes the address of an unpaid order before paying', async () => {
    const buyer = await createBuyer(t, 'NL');
    const offer = await createOffer(t, { price: 1500 });
    await fill(buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    const [order] = (await orderCall(t, 'orderCheckout', [], buyer.token).expect(200)).body as OrderBody[];
    const domestic = (await cheapestRate(t, { fromCountry: 'NL', toCountry: 'NL', weightGrams: DEFAULT_ITEM_WEIGHT }))!;
    expectTotals(order, 1500, domestic);

    const abroad = { name: 'Ann', street: 'Rue', city: 'Paris', postalCode: '75001', country: 'FR' };
    const rate = (await cheapestRate(t, { fromCountry: 'NL', toCountry: 'FR', weightGrams: DEFAULT_ITEM_WEIGHT }))!;
    const stale = { shippingAddress: abroad, amount: order.total };
    expect((await chooseCard(t, buyer, order.id, 'pm_card_visa', stale).expect(409)).body.message).toMatch(/total/);
    const { body: moved } = await chooseCard(t, buyer, order.id, 'pm_card_visa', { shippingAddress: abroad }).expect(
      200,
    );
    expect(moved.shippingAddress).toMatchObject({ city: 'Paris', country: 'FR' });
    expectTotals(moved, 1500, rate);
    const noCountry = { shippingAddress: { city: 'Paris' } };
    await chooseCard(t, buyer, order.id, 'pm_card_visa', noCountry).expect(400);
  });
});

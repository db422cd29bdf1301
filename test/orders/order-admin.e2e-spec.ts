import { Role } from '../../src/common/principal';
import { CardPaymentSandbox } from '../../src/services/payments/sandbox/card-payment-sandbox';
import { pdfPages } from '../support/pdf-text';
import { startTestApp, TestApp } from '../support/test-app';
import {
  Buyer,
  checkOut,
  cheapestRate,
  chooseCard,
  createBuyer,
  DEFAULT_ITEM_WEIGHT,
  OrderBody,
  orderCall,
  payOrder,
  withTax,
} from './support/order-calls';
import { createOffer, stockOf } from './support/order-fixtures';

describe('orderServiceImpl administration', () => {
  let t: TestApp;
  let admin: string;
  let buyer: Buyer;

  beforeAll(async () => {
    // The admin's approval is the subject here: orders wait for it (ORDER_APPROVAL=manual).
    const env = { ORDER_TAX_RATE: '20', ORDER_SERVICE_FEE_RATE: '10', ORDER_APPROVAL: 'manual' };
    t = await startTestApp({ env });
    admin = t.tokenFor(Role.ADMIN);
    buyer = await createBuyer(t);
  });

  afterAll(() => t.stop());

  const call = (fn: string, args: unknown[]) => orderCall(t, fn, args, admin);
  const buyerOf = () => ({ userId: buyer.id, username: buyer.username });
  const orderOf = async (id: string): Promise<OrderBody> => (await call('getOrder', [id]).expect(200)).body;
  /** The carrier's rate for items of the default weight from the NL seller to the buyer's NL address. */
  const domesticRate = async (items: number) =>
    (await cheapestRate(t, { fromCountry: 'NL', toCountry: 'NL', weightGrams: items * DEFAULT_ITEM_WEIGHT }))!;
  const newOrder = async (quantity = 2, price = 1000) => {
    const offer = await createOffer(t, { price });
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity }]);
    return { offer, order };
  };

  it('should describe its repositories and providers', async () => {
    await newOrder();
    const { body: orders } = await call('getRepository', []).expect(200);
    expect(orders).toMatchObject({ repository: 'OrderRepository', entity: 'Order', collection: 'orders' });
    expect(orders.count).toBeGreaterThanOrEqual(1);
    const { body: items } = await call('getCommerceItemRepository', []).expect(200);
    expect(items).toMatchObject({ repository: 'CommerceItemRepository', entity: 'CommerceItem' });
    expect(items.count).toBeGreaterThanOrEqual(1);
    expect((await orderCall(t, 'activePaymentProvider', [], buyer.token).expect(200)).body).toBe('card-sandbox');
    expect((await orderCall(t, 'activeLogisticsProvider', [], buyer.token).expect(200)).body).toBe('logistics-sandbox');
  });

  it('should leave checkout orders NEW for the admin with ORDER_APPROVAL=manual, and pay only once approved', async () => {
    const { order } = await newOrder(1);
    expect(order.status).toBe('NEW');
    expect((await orderOf(order.id)).orderTimeLines.map((entry) => entry.status)).toEqual(['NEW']);
    await chooseCard(t, buyer, order.id, 'pm_card_visa').expect(200);
    await orderCall(t, 'pay', [order.id], buyer.token).expect(409);
    await call('approve', [order.id]).expect(200);
    expect((await orderOf(order.id)).orderTimeLines.at(-1)).toMatchObject({
      status: 'APPROVED',
      by: expect.any(String),
    });
    expect((await orderCall(t, 'pay', [order.id], buyer.token).expect(200)).body.orderStatus).toBe('PAID');
  });

  it('should cancel only unpaid orders through saveOrder: a paid one is canceled through its refund', async () => {
    const { order } = await newOrder(1);
    await call('approve', [order.id]).expect(200);
    await chooseCard(t, buyer, order.id, 'pm_card_visa').expect(200);
    await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    await call('saveOrder', [{ id: order.id, status: 'CANCELED' }]).expect(409);
    expect((await orderOf(order.id)).status).toBe('PAID');
  });

  it('should refuse illegal transitions with 409', async () => {
    const { order } = await newOrder();
    await call('ship', [order.id]).expect(409);
    await call('deliver', [order.id]).expect(409);
    await call('approve', [order.id]).expect(200, 'true');
    const twice = await call('approve', [order.id]).expect(409);
    expect(twice.body.message).toContain('APPROVED');
    await call('saveOrder', [{ id: order.id, status: 'PAID' }]).expect(409);
    await call('approve', ['0123456789abcdef01234567']).expect(404);
  });

  it('should create an order for a buyer, reserving stock, and refuse one without items', async () => {
    const offer = await createOffer(t, { price: 500, quantity: 4 });
    const { body } = await call('createOrder', [
      { embeddedBuyer: buyerOf(), commerceItems: [{ sellerSkuId: offer.sellerSkuId, quantity: 3 }], buyerTaxRate: 0 },
    ]).expect(200);
    expect(body).toMatchObject({ status: 'NEW', subtotal: 1500, tax: 0, total: 1500, serviceTaxRate: 10 });
    expect(body.shipping).toBeNull();
    expect(await stockOf(t, offer.sellerSkuId)).toBe(1);
    const shippingAddress = { name: 'Ann', street: 'Rue', city: 'Liège', postalCode: '4000', country: 'be' };
    const item = [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }];
    const { body: shipped } = await call('createOrder', [
      { embeddedBuyer: buyerOf(), commerceItems: item, buyerTaxRate: 0, shippingAddress },
    ]).expect(200);
    const rate = await cheapestRate(t, { fromCountry: 'NL', toCountry: 'BE', weightGrams: DEFAULT_ITEM_WEIGHT });
    expect(shipped).toMatchObject({ subtotal: 500, total: 500 + rate!, shipping: { amount: rate, toCountry: 'BE' } });
    expect(await stockOf(t, offer.sellerSkuId)).toBe(0);
    await call('createOrder', [{ embeddedBuyer: buyerOf() }]).expect(400);
    const tooMany = [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }];
    await call('createOrder', [{ embeddedBuyer: buyerOf(), commerceItems: tooMany }]).expect(409);
  });

  it('should save details, recompute tax from new rates and cancel giving stock back', async () => {
    const { offer, order } = await newOrder(2, 1000);
    const shipping = await domesticRate(2);
    expect(order).toMatchObject(withTax(2000, shipping, 20));
    const details = { packageItem: { weightGrams: 800 }, shippingAddress: { city: 'Delft', country: 'nl' } };
    const { body: saved } = await call('saveOrder', [{ id: order.id, buyerTaxRate: 9, ...details }]).expect(200);
    expect(saved).toMatchObject({ ...withTax(2000, shipping, 9), packageItem: { weightGrams: 800 } });
    expect(saved.shippingAddress).toMatchObject({ city: 'Delft', country: 'NL' });

    await call('saveOrder', [{ id: order.id, status: 'CANCELED' }]).expect(200);
    expect(await stockOf(t, offer.sellerSkuId)).toBe(10);
    await call('saveOrder', [{ id: order.id, status: 'APPROVED' }]).expect(409);
  });

  it('should remove a line of an unpaid order, giving its stock back', async () => {
    const fern = await createOffer(t, { price: 1000 });
    const second = await createOffer(t, { price: 300, sellerId: fern.sellerId });
    const [order] = await checkOut(t, buyer, [
      { sellerSkuId: fern.sellerSkuId, quantity: 1 },
      { sellerSkuId: second.sellerSkuId, quantity: 2 },
    ]);
    expect(order.commerceItems).toHaveLength(2);
    const line = order.commerceItems.find((item) => item.sellerSkuId === second.sellerSkuId)!;
    await call('removeCommerceItemFromOrder', [order.id, line.id]).expect(200, 'true');
    await call('removeCommerceItemFromOrder', [order.id, line.id]).expect(200, 'false');
    expect(await stockOf(t, second.sellerSkuId)).toBe(10);
    // The parcel's price stays as quoted at checkout (for three items).
    expect(await orderOf(order.id)).toMatchObject(withTax(1000, await domesticRate(3), 20));
    const last = [order.id, order.commerceItems.find((item) => item.id !== line.id)!.id];
    expect((await call('removeCommerceItemFromOrder', last).expect(409)).body.message).toContain('no items left');
    await call('approve', [order.id]).expect(200);
    await chooseCard(t, buyer, order.id, 'pm_card_visa').expect(200);
    await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    expect((await call('removeCommerceItemFromOrder', last).expect(409)).body.message).toContain('only unpaid');
  });

  it('should remove unpaid orders giving their stock back, and skip unknown ids', async () => {
    const first = await newOrder(3);
    const second = await newOrder(4);
    await call('removeOrder', [first.order.id]).expect(200);
    expect(await stockOf(t, first.offer.sellerSkuId)).toBe(10);
    await call('removeOrder', [first.order.id]).expect(404);
    await call('removeOrdersByIds', [[second.order.id, '0123456789abcdef01234567', 'junk']]).expect(200);
    expect(await stockOf(t, second.offer.sellerSkuId)).toBe(10);
    await call('getOrder', [second.order.id]).expect(404);
  });

  it('should search orders as lists, pages and pipelines', async () => {
    const { order } = await newOrder();
    const request = JSON.stringify({ searchTerm: buyer.username, query: { status: 'NEW' }, limit: 1, page: 0 });
    const { body: page } = await call('getOrdersPaged', [request]).expect(200);
    expect(page).toMatchObject({ size: 1, number: 0, first: true, numberOfElements: 1 });
    expect(page.totalElements).toBeGreaterThanOrEqual(1);
    const query = { 'embeddedBuyer.userId': buyer.id, status: 'NEW' };
    const { body: list } = await call('getOrders', [JSON.stringify({ query })]).expect(200);
    expect(list.map((o: OrderBody) => o.id)).toContain(order.id);
    const { body: pipeline } = await call('getPaginationFilter', [request]).expect(200);
    expect(pipeline.map((stage: object) => Object.keys(stage)[0])).toEqual(['$match', '$sort', '$skip', '$limit']);
  });

  it("should render the buyer-to-vendor invoice of a paid order as a PDF with the order's amounts", async () => {
    const { order } = await newOrder(3, 1234);
    await call('createInvoiceBuyerToVendor', [order.id]).expect(409);
    await payOrder(t, buyer, order.id, admin);
    const { body: attachment } = await call('createInvoiceBuyerToVendor', [order.id]).expect(200);
    const name = `INV-${new Date().getUTCFullYear()}-000001.pdf`; // the default pattern: no internal id (issue 24)
    expect(attachment).toMatchObject({ name, contentType: 'application/pdf' });
    expect(attachment.kind).toBe('buyer-to-vendor');
    const text = (await pdfPages(Buffer.from(attachment.data, 'base64'))).join('\n');
    const { tax, total } = withTax(3702, await domesticRate(3), 20);
    const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;
    expect(text).toContain('€37.02');
    expect(text).toContain(`Shipping (STANDARD)`);
    expect(text).toContain(euros(await domesticRate(3)));
    expect(text).toContain(euros(tax));
    expect(text).toContain(euros(total));
  });

  it('should settle pending payments whose webhook never came on handleNotify', async () => {
    const { order } = await newOrder();
    await call('approve', [order.id]).expect(200);
    await chooseCard(t, buyer, order.id, 'pm_card_threeDSecureRequired').expect(200);
    const { body: payment } = await orderCall(t, 'pay', [order.id], buyer.token).expect(200);
    await t.app.get(CardPaymentSandbox).completeChallenge(payment.paymentIntentId, true);
    expect((await orderOf(order.id)).status).toBe('PAYMENT_PENDING');

    await call('handleNotify', []).expect(200);
    expect(await orderOf(order.id)).toMatchObject({ status: 'PAID', paymentIntentId: payment.paymentIntentId });
  });
});

import { Role } from '../../src/common/principal';
import { SmtpInbox } from '../auth/support/smtp-inbox';
import { TestStompClient } from '../realtime/stomp-client';
import { pdfPages } from '../support/pdf-text';
import { startTestApp, TestApp } from '../support/test-app';
import { addToCatalogue, CatalogueEntry, onboardSeller } from '../support/marketplace';
import { EVENT_BOUND_MS, OrderFollower } from './support/order-follower';
import { Person, signUp } from './support/people';
import {
  asPerson,
  download,
  GEO,
  OFFERS,
  onlyOrder,
  orderCall,
  orderOf,
  payByCard,
  PostalAddress,
  putInCart,
  ShopOrder,
} from './support/shop-calls';
import { availableNow, listProducts, productDetail } from './support/storefront';

/**
 * Unpaid orders expire this long after checkout. Long enough for the first buyer to get through checkout, payment
 * and the 3-D Secure challenge on a busy machine; short enough to wait for the second buyer's order to expire.
 */
const PAYMENT_TTL = '8s';
/** The expiry sweep runs on its own schedule: the bound of the wait for the expired order, not an expectation. */
const EXPIRY_BOUND_MS = 90_000;

const TAX_RATE = 21;
const PRICE = 1850;
const STOCK = 5;

const warehouse: PostalAddress = {
  street: 'Kade',
  houseNumber: '1',
  postalCode: '2311AA',
  city: 'Leiden',
  country: 'NL',
};
const annAddress: PostalAddress = {
  name: 'Ann Buyer',
  street: 'Canal Street',
  houseNumber: '12',
  postalCode: '1011AA',
  city: 'Amsterdam',
  country: 'NL',
};

const CATALOGUE_TOPIC = '/topic/catalogue';
type OfferEvent = { event: string; id: string; data: { quantity: number; price: number } };

/** Euros as the invoice prints them, e.g. `€44.77`. */
const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;

/**
 * One shop day through the public interface: people sign up and log in over the auth API, the seller manages their
 * offer over REST, guests and buyers use the beans, payment and delivery go through the sandbox providers' pages and
 * signed webhooks, and state changes are awaited on the orders' STOMP topics. No shop admin takes a step: the only
 * ADMIN calls are the operator's setup that the product requires (onboarding the seller, adding the product; see
 * test/support/marketplace.ts) and the sandbox carrier's scans, which stand for the carrier's own systems.
 */
describe('a shop day with no admin in the loop', () => {
  let t: TestApp;
  let inbox: SmtpInbox;
  let seller: Person;
  let sellerId: string;
  let catalogue: CatalogueEntry;
  let [ann, ben, cleo]: Person[] = [];
  let live: Map<Person, OrderFollower>;
  /** The sandbox carrier's controls are ADMIN-only: this token plays the carrier, not the shop's admin. */
  let carrier: string;

  let warehouseId: string;
  let offerId: string;
  let annOrder: ShopOrder;

  beforeAll(async () => {
    inbox = new SmtpInbox();
    const smtpUrl = await inbox.start();
    t = await startTestApp({
      env: {
        AUTH_EMAIL_FLOWS: 'true',
        SMTP_URL: smtpUrl,
        ORDER_TAX_RATE: String(TAX_RATE),
        ORDER_PAYMENT_TTL: PAYMENT_TTL,
      },
    });
    carrier = t.tokenFor(Role.ADMIN);
    seller = await signUp(t, inbox, 'fern-nursery');
    sellerId = await onboardSeller(t, seller, 'Fern Nursery');
    catalogue = await addToCatalogue(t, 'Hart’s-tongue Fern', 'HTF-12');
    [ann, ben, cleo] = [await signUp(t, inbox, 'ann'), await signUp(t, inbox, 'ben'), await signUp(t, inbox, 'cleo')];
    live = new Map();
    for (const person of [ann, ben, cleo, seller]) live.set(person, await OrderFollower.connect(t.url, person));
  });

  afterAll(async () => {
    for (const follower of live?.values() ?? []) await follower.disconnect();
    await t?.stop();
    await inbox?.stop();
  });

  const stock = () => availableNow(t, catalogue.productId, offerId);
  const followerOf = (person: Person) => live.get(person)!;
  /** Who made each move of the order: the people of the day and the systems of the shop and its providers. */
  const movesOf = (order: ShopOrder) => order.orderTimeLines.map(({ status, by }) => [status, by]);
  /** The seller's own view of the offer: units promised to unshipped orders, and on hand at the warehouse. */
  const sellersView = async () => {
    const { body } = await asPerson(t.http.get('/api/v1/catalogue/sellers/me/offers'), seller).expect(200);
    return (body as { items: { id: string; reserved: number; stockByWarehouse: unknown[] }[] }).items;
  };

  it('the seller lists an offer of the product with stock at their warehouse, live for guests', async () => {
    const guest = await TestStompClient.connect(t.url);
    await guest.subscribe(CATALOGUE_TOPIC);
    const { body: address } = await t
      .callBean(GEO, 'addShippingAddress', [sellerId, warehouse], { token: seller.token })
      .expect(200);
    warehouseId = (address as { id: string }).id;

    const created = await asPerson(t.http.post(OFFERS), seller)
      .send({ skuId: catalogue.skuId, price: PRICE, currency: 'EUR' })
      .expect(201);
    offerId = (created.body as { id: string }).id;
    expect(created.body).toMatchObject({ sellerId, productId: catalogue.productId, active: true, quantity: 0 });

    const stocked = await asPerson(t.http.put(`${OFFERS}/${offerId}/stock/${warehouseId}`), seller)
      .send({ quantity: STOCK })
      .expect(200);
    expect(stocked.body).toMatchObject({ quantity: STOCK, stockByWarehouse: [{ warehouseId, onHand: STOCK }] });

    const inStock = (event: OfferEvent) => event.id === offerId && event.data.quantity === STOCK;
    const live = await guest.next<OfferEvent>(CATALOGUE_TOPIC, inStock, EVENT_BOUND_MS);
    expect(live).toMatchObject({ event: 'offer.changed', data: { price: PRICE, currency: 'EUR', active: true } });
    await guest.disconnect();
  });

  it('a guest finds it in the product listing and opens its detail', async () => {
    const listing = await listProducts(t, { q: 'tongue fern' });
    const listed = listing.items.find((item) => item.id === catalogue.productId);
    expect(listed).toMatchObject({
      name: catalogue.productName,
      cheapestOffer: { offerId, price: PRICE, currency: 'EUR', quantity: STOCK },
    });

    const detail = await productDetail(t, catalogue.productId);
    expect(detail).toMatchObject({ id: catalogue.productId, name: catalogue.productName });
    expect(detail.offers).toEqual([expect.objectContaining({ offerId, price: PRICE, quantity: STOCK })]);
  });

  it('a buyer checks out two with a shipping address given at checkout', async () => {
    await putInCart(t, ann, offerId, 2);
    annOrder = await onlyOrder(orderCall(t, 'orderCheckoutTo', [{ address: annAddress }], ann));

    // Approved at checkout (no moderator), addressed, with the carrier's rate for the address in its totals.
    expect(annOrder).toMatchObject({ status: 'APPROVED', currencyCode: 'EUR', shippingAddress: annAddress });
    const { goods, shipping, tax, total } = annOrder.totals;
    expect(goods).toBe(2 * PRICE);
    expect(shipping).toBeGreaterThan(0);
    expect(annOrder.shipping).toMatchObject({ amount: shipping, currency: 'EUR' });
    expect(tax).toBe(Math.round(((goods + shipping) * TAX_RATE) / 100));
    expect(total).toBe(goods + shipping + tax);
    expect(annOrder.total).toBe(total);
    expect(await stock()).toBe(STOCK - 2);
  });

  it('the buyer pays by card with 3-D Secure: the challenge page and the signed webhook settle it', async () => {
    await followerOf(ann).follow(annOrder.id);
    const payment = await payByCard(t, ann, annOrder.id, 'pm_card_threeDSecureRequired');
    expect(payment).toMatchObject({
      status: 'REQUIRES_ACTION',
      orderStatus: 'PAYMENT_PENDING',
      amount: annOrder.total,
    });
    const { body: link } = await orderCall(t, 'obtain3DSecureLink', [annOrder.id], ann).expect(200);
    expect(link).toBe(payment.nextActionUrl);

    // The buyer's browser opens the challenge page and submits its form.
    const challenge = new URL(link as string).pathname;
    const page = await t.http.get(challenge).expect(200);
    expect(page.text).toContain(euros(annOrder.total));
    expect(page.text).toMatch(/<form method="post">[\s\S]*name="outcome" value="complete"/);
    const answered = await t.http.post(challenge).type('form').send('outcome=complete').expect(303);
    // Back to the shop (no returnUrl given: this server's public origin), with the outcome (issue 24).
    expect(answered.headers.location).toBe(
      `${t.url}/?payment_intent=${payment.paymentIntentId}&redirect_status=succeeded`,
    );

    const paid = await followerOf(ann).until(annOrder.id, 'PAID');
    expect(paid).toMatchObject({ status: 'PAID', paymentIntentId: payment.paymentIntentId });
    expect(await stock()).toBe(STOCK - 2);
  });

  it('the seller ships it', async () => {
    await followerOf(seller).follow(annOrder.id);
    await orderCall(t, 'ship', [annOrder.id], seller).expect(200);

    const shipped = await followerOf(ann).until(annOrder.id, 'SHIPPED');
    expect(shipped.parcelId).toMatch(/^par_/);
    expect(await followerOf(seller).until(annOrder.id, 'SHIPPED')).toMatchObject({ id: annOrder.id });
    // The shipped units leave the warehouse; what is for sale stays as it was.
    expect(await stock()).toBe(STOCK - 2);
    expect(await sellersView()).toEqual([
      expect.objectContaining({ id: offerId, reserved: 0, stockByWarehouse: [{ warehouseId, onHand: STOCK - 2 }] }),
    ]);
    annOrder = await orderOf(t, ann, annOrder.id);
  });

  it('the carrier delivers it to the buyer', async () => {
    const scan = (status: string) =>
      t.http
        .post(`/api/v1/delivery/sandbox/parcels/${annOrder.parcelId}/scan`)
        .set('Authorization', `Bearer ${carrier}`)
        .send({ status })
        .expect(200);
    await scan('PICKED_UP');
    await scan('DELIVERED');

    await followerOf(ann).until(annOrder.id, 'DELIVERED');
    expect(followerOf(ann).statuses(annOrder.id)).toEqual(['PAYMENT_PENDING', 'PAID', 'SHIPPED', 'DELIVERED']);
    annOrder = await orderOf(t, ann, annOrder.id);
    // No admin in the loop: approved by the shop itself, settled by the card and carrier webhooks.
    expect(movesOf(annOrder)).toEqual([
      ['NEW', ann.id],
      ['APPROVED', 'system:auto-approval'],
      ['PAYMENT_PENDING', ann.id],
      ['PAID', 'system:card-sandbox'],
      ['SHIPPED', seller.id],
      ['DELIVERED', 'system:logistics-sandbox'],
    ]);
    expect(await stock()).toBe(STOCK - 2);
  });

  it('the buyer downloads the invoice and it shows the order total', async () => {
    const { body: mine } = await asPerson(t.http.get('/api/v1/invoices/mine'), ann).expect(200);
    const invoices = (mine as { content: { id: string; number: string; orderId: string; total: number }[] }).content;
    expect(invoices).toEqual([expect.objectContaining({ orderId: annOrder.id, total: annOrder.total })]);

    const pdf = await download(t, `/api/v1/invoices/${invoices[0].id}/pdf`, ann).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = (await pdfPages(pdf.body as Buffer)).join('\n');
    expect(text).toContain(invoices[0].number);
    expect(text).toMatch(new RegExp(`Total\\s*${euros(annOrder.total).replace('.', '\\.')}`));
    await download(t, `/api/v1/invoices/${invoices[0].id}/pdf`, ben).expect(404);
  });

  it("a second buyer's unpaid order expires and its stock returns", async () => {
    // Ben checks out to his default address, the newest in his address book.
    await t.callBean(GEO, 'createAddress', [{ ...annAddress, name: 'Ben' }], { token: ben.token }).expect(200);
    await putInCart(t, ben, offerId, 1);
    const order = await onlyOrder(orderCall(t, 'orderCheckout', [], ben));
    await followerOf(ben).follow(order.id);
    expect(order).toMatchObject({
      status: 'APPROVED',
      shippingAddress: expect.objectContaining({ city: 'Amsterdam' }),
    });
    expect(await stock()).toBe(STOCK - 3);

    await followerOf(ben).until(order.id, 'CANCELED', EXPIRY_BOUND_MS);
    expect(await stock()).toBe(STOCK - 2);
    expect(await sellersView()).toEqual([expect.objectContaining({ reserved: 0 })]);
    expect(movesOf(await orderOf(t, ben, order.id))).toEqual([
      ['NEW', ben.id],
      ['APPROVED', 'system:auto-approval'],
      ['CANCELED', 'system:payment-ttl'],
    ]);
    await orderCall(t, 'pay', [order.id], ben).expect(409);
  });

  it("a third buyer's order is refunded after payment and its stock returns", async () => {
    await putInCart(t, cleo, offerId, 1);
    const order = await onlyOrder(
      orderCall(t, 'orderCheckoutTo', [{ address: { ...annAddress, name: 'Cleo' } }], cleo),
    );
    await followerOf(cleo).follow(order.id);
    expect(await stock()).toBe(STOCK - 3);
    const payment = await payByCard(t, cleo, order.id, 'pm_card_visa');
    expect(payment).toMatchObject({ status: 'SUCCEEDED', orderStatus: 'PAID', amount: order.total });

    await orderCall(t, 'refundOrder', [{ orderId: order.id }], seller).expect(200);
    await followerOf(cleo).until(order.id, 'REFUNDED');
    expect(await stock()).toBe(STOCK - 2);
    expect(await sellersView()).toEqual([expect.objectContaining({ reserved: 0 })]);
    const refunded = await orderOf(t, cleo, order.id);
    expect(movesOf(refunded)).toEqual([
      ['NEW', cleo.id],
      ['APPROVED', 'system:auto-approval'],
      ['PAYMENT_PENDING', cleo.id],
      ['PAID', cleo.id],
      ['REFUNDED', 'system:card-sandbox'],
    ]);
    expect(refunded.refunds).toEqual([
      expect.objectContaining({ amount: order.total, status: 'SUCCEEDED', restock: true, requestedBy: seller.id }),
    ]);

    // At the end of the day the guest's listing offers what is left.
    const { items } = await listProducts(t, { q: 'fern' });
    expect(items).toEqual([
      expect.objectContaining({
        id: catalogue.productId,
        cheapestOffer: expect.objectContaining({ offerId, quantity: STOCK - 2 }),
      }),
    ]);
  });
});

import { ParsedMail, simpleParser } from 'mailparser';
import { Role } from '../../src/common/principal';
import { SmtpInbox } from '../auth/support/smtp-inbox';
import { nextMailTo } from '../mail/support/mail-reading';
import { TestStompClient } from '../realtime/stomp-client';
import { pdfPages } from '../support/pdf-text';
import { startTestApp, TestApp } from '../support/test-app';
import { EVENT_BOUND_MS, OrderFollower } from './support/order-follower';
import { Person, signUp } from './support/people';
import { asPerson, GEO, OFFERS, onlyOrder, orderCall, payByCard, PostalAddress, ShopOrder } from './support/shop-calls';

const CATALOGUE = 'catalogueAdminServiceImpl';
const ONBOARDING = 'sellerOnboardingServiceImpl';
const CONNECT = 'cardConnectServiceMock';
const USERS = 'userManagementServiceImpl';
const SEARCH = 'ecomRemainsSearchEngineServiceImpl';
const CART = 'shoppingCartServiceImpl';

const PRICES = { small: 1400, large: 2600 };
const STOCK = 6;

const company = {
  companyName: 'Osmunda Gärtnerei GmbH',
  street: 'Gartenweg 4',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  vatId: 'DE123456789',
};
const warehouse: PostalAddress = {
  street: 'Lagerstraße',
  houseNumber: '9',
  postalCode: '10117',
  city: 'Berlin',
  country: 'DE',
};
const buyerAddress: PostalAddress = {
  name: 'Greta Käuferin',
  street: 'Blumenweg',
  houseNumber: '3',
  postalCode: '80331',
  city: 'München',
  country: 'DE',
};

type SellerOrderEvent = { event: string; id: string; data: { status: string } };

/**
 * An operator's day through the public interface only (no model writes): an admin builds the catalogue, a user
 * applies as a seller and is approved, the seller sets up payouts, a warehouse and offers, a guest finds the product in
 * German, a buyer buys and pays, the seller works the order from its desk and its live topic, mails reach a real SMTP
 * server, a partial refund gives a credit note, and the admin disables a user whose token stops working at once.
 */
describe('an operator day with no model writes', () => {
  let t: TestApp;
  let inbox: SmtpInbox;
  let admin: string;
  let seller: Person;
  let buyer: Person;
  let sellerId: string;
  let productId: string;
  const skus: Record<keyof typeof PRICES, string> = { small: '', large: '' };
  const offers: Record<keyof typeof PRICES, string> = { small: '', large: '' };
  let sellerLive: TestStompClient;
  let buyerLive: OrderFollower;
  let order: ShopOrder;
  let parcelId: string;

  beforeAll(async () => {
    inbox = new SmtpInbox();
    t = await startTestApp({ env: { AUTH_EMAIL_FLOWS: 'true', SMTP_URL: await inbox.start(), ORDER_TAX_RATE: '19' } });
    admin = t.tokenFor(Role.ADMIN);
  });

  afterAll(async () => {
    await sellerLive?.disconnect();
    await buyerLive?.disconnect();
    await t?.stop();
    await inbox?.stop();
  });

  const asAdmin = async <T>(bean: string, fn: string, args: unknown[]): Promise<T> =>
    (await t.callBean(bean, fn, args, { token: admin }).expect(200)).body as T;
  const as = async <T>(person: Person, bean: string, fn: string, args: unknown[], lang = 'en'): Promise<T> =>
    (await t.callBean(bean, fn, args, { token: person.token, lang }).expect(200)).body as T;
  const mailTo = (person: Person): Promise<ParsedMail> => nextMailTo(inbox, `${person.username}@shop.test`);
  /**
   * The person's mails once `count` have arrived, parsed. Mails are sent as they become ready, not in the order of
   * their events (the paid mail waits for its invoice), so tests find them by subject.
   */
  const mailsTo = async (person: Person, count: number): Promise<ParsedMail[]> => {
    const address = `${person.username}@shop.test`;
    const deadline = Date.now() + EVENT_BOUND_MS;
    const received = () => inbox.messages.filter(({ to }) => to.includes(address));
    while (received().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const mails = received();
    mails.forEach((mail) => inbox.messages.splice(inbox.messages.indexOf(mail), 1));
    return Promise.all(mails.map(({ raw }) => simpleParser(raw)));
  };
  const withSubject = (mails: ParsedMail[], subject: string): ParsedMail => {
    const mail = mails.find((one) => one.subject === subject);
    if (!mail) throw new Error(`No mail "${subject}" among ${mails.map((one) => one.subject).join(', ')}`);
    return mail;
  };

  it('the admin creates a category, an attribute and a product with two SKUs in English and German', async () => {
    const category = await asAdmin<{ id: string }>(CATALOGUE, 'createCategory', [{ name: 'Ferns' }]);
    const pot = await asAdmin<{ id: string }>(CATALOGUE, 'createAttribute', [
      { code: 'pot', name: 'Pot size', type: 'OPTION' },
    ]);
    const product = await asAdmin<{ id: string; published: boolean }>(CATALOGUE, 'createProduct', [
      {
        name: 'Royal Fern',
        description: 'A stately fern for wet ground.',
        categories: [category.id],
        translations: [{ lang: 'de', name: 'Königsfarn', description: 'Ein stattlicher Farn für feuchte Böden.' }],
      },
    ]);
    productId = product.id;
    for (const [size, cm] of [
      ['small', '12 cm'],
      ['large', '19 cm'],
    ] as const) {
      const sku = await asAdmin<{ id: string }>(CATALOGUE, 'createSku', [
        { productId, code: `RF-${size}`, name: `Pot ${cm}`, attributes: [{ attributeId: pot.id, values: [cm] }] },
      ]);
      skus[size] = sku.id;
    }
    expect(await asAdmin(CATALOGUE, 'publishProduct', [productId])).toMatchObject({ published: true });
    const trail = await asAdmin<{ action: string; actor: { role: string } }[]>('auditServiceImpl', 'getAuditTrail', [
      'product',
      productId,
    ]);
    expect(trail.map((entry) => entry.action)).toEqual(expect.arrayContaining(['product.create', 'product.publish']));
    expect(trail.every((entry) => entry.actor.role === 'ADMIN')).toBe(true);
  });

  it('a user applies as a seller and the admin approves the application', async () => {
    seller = await signUp(t, inbox, 'osmunda');
    const application = await as<{ id: string; status: string }>(seller, ONBOARDING, 'applyAsSeller', [company]);
    expect(application.status).toBe('PENDING');
    const approved = await asAdmin<{ sellerId: string; status: string }>(ONBOARDING, 'approveSellerApplication', [
      application.id,
    ]);
    expect(approved.status).toBe('APPROVED');
    sellerId = approved.sellerId;
  });

  it('the seller sets up payouts, adds a warehouse and offers both SKUs with stock there', async () => {
    expect(
      await as(seller, CONNECT, 'createMySellerBankAccount', [
        { accountHolderName: company.companyName, iban: 'DE89 3704 0044 0532 0130 00' },
      ]),
    ).toBe(true);
    const { body: address } = await t
      .callBean(GEO, 'addShippingAddress', [sellerId, warehouse], { token: seller.token })
      .expect(200);
    const warehouseId = (address as { id: string }).id;
    for (const size of ['small', 'large'] as const) {
      const { body: offer } = await asPerson(t.http.post(OFFERS), seller)
        .send({ skuId: skus[size], price: PRICES[size], currency: 'EUR' })
        .expect(201);
      offers[size] = (offer as { id: string }).id;
      await asPerson(t.http.put(`${OFFERS}/${offers[size]}/stock/${warehouseId}`), seller)
        .send({ quantity: STOCK })
        .expect(200);
    }
  });

  it('a guest finds the product in German, with the cheaper offer', async () => {
    const { body: listing } = await t
      .callBean(SEARCH, 'listProducts', [{ q: 'Königsfarn' }], { lang: 'de' })
      .expect(200);
    expect(listing.items).toEqual([
      expect.objectContaining({
        id: productId,
        name: 'Königsfarn',
        cheapestOffer: expect.objectContaining({ offerId: offers.small, price: PRICES.small }),
      }),
    ]);
    const { body: detail } = await t.callBean(SEARCH, 'getProductDetail', [productId], { lang: 'de' }).expect(200);
    expect(detail).toMatchObject({ name: 'Königsfarn', description: 'Ein stattlicher Farn für feuchte Böden.' });
    expect(detail.offers.map((offer: { offerId: string }) => offer.offerId)).toEqual([offers.small, offers.large]);
  });

  it('a buyer buys both sizes and pays; the seller sees the order in its desk and live', async () => {
    sellerLive = await TestStompClient.connect(t.url, { token: seller.token });
    await sellerLive.subscribe(`/topic/seller/${sellerId}/orders`);
    buyer = await signUp(t, inbox, 'greta');
    buyerLive = await OrderFollower.connect(t.url, buyer);
    const items = [
      { sellerSkuId: offers.small, quantity: 2 },
      { sellerSkuId: offers.large, quantity: 1 },
    ];
    await as(buyer, CART, 'addCommerceItems', [{ items }], 'de');
    order = await onlyOrder(
      t.callBean('orderServiceImpl', 'orderCheckoutTo', [{ address: buyerAddress }], {
        token: buyer.token,
        lang: 'de',
      }),
    );
    await buyerLive.follow(order.id);
    const placed = await sellerLive.next<SellerOrderEvent>(
      `/topic/seller/${sellerId}/orders`,
      (e) => e.id === order.id,
    );
    expect(placed).toMatchObject({ event: 'order.status', data: { status: 'NEW' } });

    const payment = await payByCard(t, buyer, order.id, 'pm_card_visa');
    expect(payment).toMatchObject({ status: 'SUCCEEDED', orderStatus: 'PAID' });
    const paid = await sellerLive.next<SellerOrderEvent>(
      `/topic/seller/${sellerId}/orders`,
      (e) => e.id === order.id && e.data.status === 'PAID',
      EVENT_BOUND_MS,
    );
    expect(paid.event).toBe('order.status');
    const desk = await as<{ content: { id: string; status: string }[] }>(
      seller,
      'orderServiceImpl',
      'getSellerOrdersPaged',
      [{ status: ['PAID'] }],
    );
    expect(desk.content).toEqual([expect.objectContaining({ id: order.id, status: 'PAID' })]);
  });

  it('the seller ships it from the desk', async () => {
    await orderCall(t, 'ship', [order.id], seller).expect(200);
    const shipped = await buyerLive.until(order.id, 'SHIPPED');
    expect(shipped.parcelId).toMatch(/^par_/);
    parcelId = shipped.parcelId as string;
  });

  it("the buyer's confirmation, paid (with the invoice PDF) and shipped mails arrive, in German", async () => {
    const mails = await mailsTo(buyer, 3);
    expect(mails).toHaveLength(3);
    const confirmation = withSubject(mails, `Ihre Bestellung ${order.id}`);
    expect(confirmation.text).toContain('vielen Dank für Ihre Bestellung');
    const paid = withSubject(mails, `Zahlung für Bestellung ${order.id} erhalten`);
    expect(paid.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
    const invoice = (await pdfPages(paid.attachments[0].content)).join('\n');
    expect(invoice).toContain(company.companyName);
    expect(invoice).toContain(company.vatId);
    expect(invoice).toContain(buyerAddress.name);
    const shipped = withSubject(mails, `Bestellung ${order.id} wurde versandt`);
    expect(shipped.text).toContain(parcelId);
  });

  it('a partial refund gives a credit note and a mail', async () => {
    await orderCall(
      t,
      'refundOrder',
      [{ orderId: order.id, items: [{ sellerSkuId: offers.small, quantity: 1 }] }],
      seller,
    ).expect(200);
    const refunded = await mailTo(buyer);
    expect(refunded.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
    const creditNote = (await pdfPages(refunded.attachments[0].content)).join('\n');
    expect(creditNote).toContain(company.companyName);
    expect(creditNote).toContain(order.id);
  });

  it('the admin disables the buyer, whose token stops working at once', async () => {
    await orderCall(t, 'getOrdersFromLoggedUser', [], buyer).expect(200);
    await asAdmin(USERS, 'disableUser', [buyer.id]);
    await orderCall(t, 'getOrdersFromLoggedUser', [], buyer).expect(401);
    await t.http
      .post('/api/v1/auth/token')
      .send({ username: buyer.username, password: 'greta-password-1' })
      .expect(401);
  });
});

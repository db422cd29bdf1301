import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Role } from '../../src/common/principal';
import { OrderMailKind, OrderMailState } from '../../src/services/order-mail/order-mail.schema';
import { SmtpInbox } from '../auth/support/smtp-inbox';
import { createBuyer, Buyer, CART, OrderBody, orderCall, payOrder } from '../orders/support/order-calls';
import { createOffer, Offer } from '../orders/support/order-fixtures';
import { pdfPages } from '../support/pdf-text';
import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, TestApp } from '../support/test-app';
import { eventually, nextMailTo, outboxOf, settledMailsOf } from './support/mail-reading';

const emailOf = (buyer: Buyer) => `${buyer.username}@example.com`;

/**
 * The order mails, through the whole app: orders made and moved through the bean API, mails received by a real SMTP
 * server (behind a TCP proxy, to take it away and bring it back), parsed, their invoice PDF parsed back.
 */
describe('order mails', () => {
  let inbox: SmtpInbox;
  let proxy: TcpProxy;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    inbox = new SmtpInbox();
    const smtpPort = Number(new URL(await inbox.start()).port);
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: smtpPort });
    t = await startTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${proxy.port}`, MAIL_FROM: 'shop@example.test' },
    });
    admin = t.tokenFor(Role.ADMIN);
  });

  afterAll(async () => {
    await t?.stop();
    await proxy?.stop();
    await inbox?.stop();
  });

  /** Checks the buyer's cart out with the given `Lang-Context`; the one order. */
  const checkOutIn = async (lang: string, buyer: Buyer, offer: Offer, quantity = 1): Promise<OrderBody> => {
    const items = [{ sellerSkuId: offer.sellerSkuId, quantity }];
    await t.callBean(CART, 'addCommerceItems', [{ items }], { token: buyer.token, lang }).expect(200);
    const { body } = await t
      .callBean('orderServiceImpl', 'orderCheckout', [], { token: buyer.token, lang })
      .expect(200);
    return (body as OrderBody[])[0];
  };

  it('should write to a German buyer in German (confirmation, paid with the invoice, shipped with tracking, delivered) and to the seller', async () => {
    const seller = await createBuyer(t);
    const offer = await createOffer(t, { sellerUser: seller, price: 1250 });
    const buyer = await createBuyer(t, 'DE');
    const order = await checkOutIn('de-DE', buyer, offer, 2);

    const confirmation = await nextMailTo(inbox, emailOf(buyer));
    expect(confirmation.subject).toBe(`Ihre Bestellung ${order.id}`);
    expect(confirmation.from?.text).toBe('shop@example.test');
    expect(confirmation.text).toContain('vielen Dank für Ihre Bestellung');
    expect(confirmation.text).toContain('- 2 x ');
    expect(confirmation.text).toContain('25,00\u00a0€'); // German money format of the goods
    expect(confirmation.text).toContain('Oude Delft 1');

    // Paying in another language changes nothing: the mails follow the language of the checkout.
    expect((await payOrder(t, buyer, order.id, admin)).orderStatus).toBe('PAID');
    const paid = await nextMailTo(inbox, emailOf(buyer));
    expect(paid.subject).toBe(`Zahlung für Bestellung ${order.id} erhalten`);
    expect(paid.text).toContain('Ihre Rechnung finden Sie im Anhang');
    const { body: invoices } = await t.http
      .get('/api/v1/invoices/mine')
      .set('Authorization', `Bearer ${buyer.token}`)
      .expect(200);
    const invoice = (invoices as { content: { orderId: string; number: string }[] }).content[0];
    expect(invoice.orderId).toBe(order.id);
    expect(paid.attachments).toHaveLength(1);
    expect(paid.attachments[0]).toMatchObject({ contentType: 'application/pdf', filename: `${invoice.number}.pdf` });
    const pdfText = (await pdfPages(paid.attachments[0].content)).join('\n');
    expect(pdfText).toContain(invoice.number);
    expect(pdfText).toContain(order.id);

    const toShip = await nextMailTo(inbox, emailOf(seller));
    expect(toShip.subject).toBe(`Paid order ${order.id} to ship`);
    expect(toShip.text).toContain('Oude Delft 1');

    await orderCall(t, 'ship', [order.id], seller.token).expect(200);
    const { body: shippedOrder } = await orderCall(t, 'getOrder', [order.id], buyer.token).expect(200);
    const shipped = await nextMailTo(inbox, emailOf(buyer));
    expect(shipped.subject).toBe(`Bestellung ${order.id} wurde versandt`);
    expect(shipped.text).toContain(`Sendungsnummer: ${(shippedOrder as OrderBody).parcelId}`);

    await orderCall(t, 'deliver', [order.id], admin).expect(200);
    expect((await nextMailTo(inbox, emailOf(buyer))).subject).toBe(`Bestellung ${order.id} wurde zugestellt`);

    const rows = await settledMailsOf(t, order.id);
    expect(rows.map(({ kind, state }) => `${kind}:${state}`).sort()).toEqual([
      'order-delivered:SENT',
      'order-paid:SENT',
      'order-placed:SENT',
      'order-shipped:SENT',
      'seller-order-paid:SENT',
    ]);
  });

  it('should write in English to a buyer whose language has no templates', async () => {
    const buyer = await createBuyer(t);
    const order = await checkOutIn('fr-CA', buyer, await createOffer(t, { price: 990 }));
    const confirmation = await nextMailTo(inbox, emailOf(buyer));
    expect(confirmation.subject).toBe(`Your order ${order.id}`);
    expect(confirmation.text).toContain('thank you for your order');
  });

  it('should tell the buyer of cancellations, before and after payment, and of a partial refund with its amount', async () => {
    const seller = await createBuyer(t);
    const offer = await createOffer(t, { sellerUser: seller, price: 1000 });
    const buyer = await createBuyer(t);
    const unpaid = await checkOutIn('en', buyer, offer);
    await nextMailTo(inbox, emailOf(buyer));
    await orderCall(t, 'cancelOrder', [unpaid.id], buyer.token).expect(200);
    expect((await nextMailTo(inbox, emailOf(buyer))).subject).toBe(`Order ${unpaid.id} has been canceled`);

    const order = await checkOutIn('en', buyer, offer, 2);
    await nextMailTo(inbox, emailOf(buyer));
    await payOrder(t, buyer, order.id, admin);
    await nextMailTo(inbox, emailOf(buyer));
    const items = [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }];
    await orderCall(t, 'refundOrder', [{ orderId: order.id, items }], seller.token).expect(200);
    const refund = await nextMailTo(inbox, emailOf(buyer));
    expect(refund.subject).toBe(`Refund for order ${order.id}`);
    expect(refund.text).toContain('€10.00 of order'); // one unit, no tax configured
    expect(refund.attachments).toEqual([expect.objectContaining({ contentType: 'application/pdf' })]);
    const creditNote = (await pdfPages(refund.attachments[0].content)).join('\n');
    expect(creditNote).toContain(refund.attachments[0].filename!.replace(/\.pdf$/, ''));
    expect(creditNote).toMatch(/€10\.00/);

    const canceledPaid = await checkOutIn('en', buyer, offer);
    await nextMailTo(inbox, emailOf(buyer));
    await payOrder(t, buyer, canceledPaid.id, admin);
    await nextMailTo(inbox, emailOf(buyer));
    await orderCall(t, 'cancelOrder', [canceledPaid.id], buyer.token).expect(200);
    const canceled = await nextMailTo(inbox, emailOf(buyer));
    expect(canceled.subject).toBe(`Order ${canceledPaid.id} has been canceled`);
    const { body: refunded } = await orderCall(t, 'getOrder', [canceledPaid.id], buyer.token).expect(200);
    const total = (refunded as OrderBody).total;
    expect(canceled.text).toContain(`€${(total / 100).toFixed(2)} has been refunded to your card`);
    expect(canceled.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
  });

  it("should use an operator's template from DATA_DIR/mail-templates", async () => {
    const dir = join(t.config.dataDir, 'mail-templates', 'en');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'order-placed.hbs'), 'Thanks, {{buyerName}}: {{orderId}}\n\nGoods {{goods}}\n');
    try {
      const buyer = await createBuyer(t);
      const order = await checkOutIn('en', buyer, await createOffer(t, { price: 500 }));
      const mail = await nextMailTo(inbox, emailOf(buyer));
      expect(mail.subject).toBe(`Thanks, ${buyer.username}: ${order.id}`);
      expect(mail.text?.trim()).toBe('Goods €5.00');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('should send the mail once the SMTP server is back after the first attempt failed', async () => {
    const buyer = await createBuyer(t);
    const offer = await createOffer(t);
    await proxy.cut();
    let orderId: string;
    try {
      orderId = (await checkOutIn('en', buyer, offer)).id;
      const failed = await eventually(
        () => outboxOf(t).findOne({ orderId, kind: OrderMailKind.PLACED }).lean().exec(),
        (row) => Boolean(row?.lastError),
      );
      expect(failed).toMatchObject({ state: OrderMailState.PENDING, lastError: expect.any(String) });
    } finally {
      await proxy.restore();
    }
    const mail = await nextMailTo(inbox, emailOf(buyer));
    expect(mail.subject).toBe(`Your order ${orderId}`);
    const [row] = await settledMailsOf(t, orderId);
    expect(row.state).toBe(OrderMailState.SENT);
    expect(row.attempts).toBeGreaterThanOrEqual(2);
  });
});

import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { Role } from '../../src/common/principal';
import { BinaryStore } from '../../src/services/binaries/binary-store';
import { INVOICES_BUCKET } from '../../src/services/accounting/invoices/invoice-issuer';
import {
  Buyer,
  checkOut,
  cheapestRate,
  chooseCard,
  createBuyer,
  DEFAULT_ITEM_WEIGHT,
  orderCall,
  withTax,
} from '../orders/support/order-calls';
import { createOffer } from '../orders/support/order-fixtures';
import { pdfPages } from '../support/pdf-text';
import { startTestApp, TestApp } from '../support/test-app';
import { setCompanyProfile } from '../support/marketplace';

const BEAN = 'accountingServiceImpl';

interface AttachmentBody {
  id: string;
  name: string;
  contentType: string;
  size: number;
  orderId: string;
  kind: string;
  createdAt: string;
  data: string;
}

describe('accountingServiceImpl', () => {
  let t: TestApp;
  let admin: string;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ORDER_TAX_RATE: '21',
        ORDER_SERVICE_FEE_RATE: '10',
        INVOICE_ISSUER_NAME: 'Green Market BV',
        ACCOUNTING_API_KEY: 'acc_test_1',
      },
    });
    admin = t.tokenFor(Role.ADMIN);
    buyer = await createBuyer(t);
  });

  afterAll(() => t.stop());

  const call = (fn: string, args: unknown[], token: string | null = admin) =>
    t.callBean(BEAN, fn, args, { token: token ?? undefined });

  /** An order of 3 × `price` from a seller with a profile; paid unless told otherwise. */
  const sellerOrder = async ({ price = 1234, currency = 'EUR', pay = true } = {}) => {
    const seller = await t.createUser({ username: `fern-moss-${randomUUID().slice(0, 8)}`, role: Role.USER });
    const offer = await createOffer(t, { price, currency, sellerUser: seller });
    const profileId = await setCompanyProfile(t, seller);
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 3 }]);
    if (pay) {
      await chooseCard(t, buyer, order.id, 'pm_card_visa').expect(200);
      expect((await orderCall(t, 'pay', [order.id], buyer.token).expect(200)).body.orderStatus).toBe('PAID');
    }
    return { order, profileId };
  };
  /** The order's confirmed refunds, once the provider's signed webhook has settled one (bounded polling). */
  const refundedSoFar = async (orderId: string): Promise<number> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { body } = await orderCall(t, 'getOrder', [orderId], admin).expect(200);
      const refunds = (body as { refunds: { status: string; amount: number }[] }).refunds;
      const confirmed = refunds.filter((refund) => refund.status === 'SUCCEEDED');
      if (confirmed.length > 0 || Date.now() > deadline) return confirmed.reduce((sum, r) => sum + r.amount, 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const textOf = async (attachment: AttachmentBody) =>
    (await pdfPages(Buffer.from(attachment.data, 'base64'))).join('\n');

  describe('access', () => {
    it.each([
      ['init', []],
      ['isAccountingKeyDefined', []],
      ['createPayoutInvoice', ['0123456789abcdef01234567', '0123456789abcdef01234567']],
      ['createCommissionInvoice', ['0123456789abcdef01234567', '0123456789abcdef01234567']],
      ['retrieveContact', ['0123456789abcdef01234567']],
    ])('should refuse %s without a token (401) and to a user (403)', async (fn, args) => {
      await call(fn, args, null).expect(401);
      expect((await call(fn, args, buyer.token).expect(403)).body.error).toBe('Access denied');
    });
  });

  describe('configuration', () => {
    it('should report its key and initialise', async () => {
      expect((await call('isAccountingKeyDefined', []).expect(200)).body).toBe(true);
      expect((await call('init', []).expect(200)).body).toBeNull();
    });
  });

  describe('createPayoutInvoice', () => {
    it('should store a PDF in GridFS showing the totals, the commission and the payout', async () => {
      const { order, profileId } = await sellerOrder();
      const shipping = (await cheapestRate(t, {
        fromCountry: 'NL',
        toCountry: 'NL',
        weightGrams: 3 * DEFAULT_ITEM_WEIGHT,
      }))!;
      const { tax, total } = withTax(3702, shipping, 21);
      expect(order).toMatchObject({ subtotal: 3702, tax, total });
      const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`.replace('.', '\\.');
      const { body: invoice } = await call('createPayoutInvoice', [order.id, profileId]).expect(200);
      expect(invoice).toMatchObject({ contentType: 'application/pdf', orderId: order.id, kind: 'payout' });
      expect(invoice.name).toMatch(new RegExp(`^PO-${new Date().getUTCFullYear()}-\\d{6}\\.pdf$`));
      expect(new Date(invoice.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

      const [file] = await t.app
        .get(BinaryStore)
        .list({ 'metadata.invoiceId': new Types.ObjectId(invoice.id) }, INVOICES_BUCKET);
      const stored = await t.app.get(BinaryStore).read(file._id, INVOICES_BUCKET);
      expect(stored.length).toBe(invoice.size);
      expect(stored.subarray(0, 5).toString()).toBe('%PDF-');

      const text = await textOf(invoice);
      const parties = ['Payout statement', 'Green Market BV', 'Fern & Moss Nursery', 'NL123456789B01'];
      for (const expected of [...parties, 'Currency: EUR', '€12.34']) expect(text).toContain(expected);
      expect(text).toMatch(/Subtotal\s*€37\.02/);
      expect(text).toMatch(new RegExp(`Shipping\\s*${euros(shipping)}`));
      expect(text).toMatch(new RegExp(`Tax \\(21%\\)\\s*${euros(tax)}`));
      expect(text).toMatch(new RegExp(`Total paid by the buyer\\s*${euros(total)}`));
      expect(text).toMatch(/Commission \(10%\)\s*-€3\.70/);
      expect(text).toMatch(/VAT on commission \(21%\)\s*-€0\.78/);
      // Commission 370 (10 % of the goods) and its VAT 78 come off what the buyer paid.
      expect(text).toMatch(new RegExp(`Payout\\s*${euros(total - 370 - 78)}`));
    });

    it("should take a partial refund from the seller's payout, once the provider confirmed it", async () => {
      const { order, profileId } = await sellerOrder();
      const [line] = order.commerceItems;
      const refundOne = { orderId: order.id, items: [{ sellerSkuId: line.sellerSkuId, quantity: 1 }] };
      await orderCall(t, 'refundOrder', [refundOne], admin).expect(200);
      const settled = await refundedSoFar(order.id);
      expect(settled).toBeGreaterThan(0);

      const { body: invoice } = await call('createPayoutInvoice', [order.id, profileId]).expect(200);
      const text = await textOf(invoice);
      const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`.replace('.', '\\.');
      expect(text).toMatch(new RegExp(`Refunded to the buyer\\s*-${euros(settled)}`));
      // Commission 370 and its VAT 78 stay on the goods as sold; the refund comes out of the payout.
      expect(text).toMatch(new RegExp(`Payout\\s*${euros(order.total - settled - 370 - 78)}`));
    });

    it('should answer the same invoice when asked again', async () => {
      const { order, profileId } = await sellerOrder();
      const { body: first } = await call('createPayoutInvoice', [order.id, profileId]).expect(200);
      const { body: again } = await call('createPayoutInvoice', [order.id, profileId]).expect(200);
      expect(again.id).toBe(first.id);
    });

    it('should store one invoice of concurrent requests and answer it to each', async () => {
      const { order, profileId } = await sellerOrder();
      const issue = () => call('createPayoutInvoice', [order.id, profileId]);
      const answers = await Promise.all(Array.from({ length: 4 }, issue));
      const outcomes = new Set(answers.map(({ status, body }) => `${status} ${body.id}`));
      expect(outcomes).toEqual(new Set([`200 ${answers[0].body.id}`]));
      const filter = { 'metadata.orderId': order.id, 'metadata.kind': 'payout' };
      const files = await t.app.get(BinaryStore).list(filter, INVOICES_BUCKET);
      expect(files.map((file) => String(file.metadata?.invoiceId))).toEqual([answers[0].body.id]);
    });

    it('should refuse unknown ids, unpaid orders and a profile that is not the seller', async () => {
      const { order, profileId } = await sellerOrder();
      const unpaid = await sellerOrder({ pay: false });
      await call('createPayoutInvoice', ['0123456789abcdef01234567', profileId]).expect(404);
      await call('createPayoutInvoice', [order.id, '0123456789abcdef01234567']).expect(404);
      await call('createPayoutInvoice', [order.id, 'not-an-id']).expect(404);
      const refused = await call('createPayoutInvoice', [unpaid.order.id, unpaid.profileId]).expect(409);
      expect(refused.body.message).toContain('APPROVED');
      await call('createPayoutInvoice', [order.id, unpaid.profileId]).expect(400);
      await call('createPayoutInvoice', [order.id]).expect(400);
    });
  });

  describe('createCommissionInvoice', () => {
    it('should bill the commission with VAT at the seller rate', async () => {
      const { order, profileId } = await sellerOrder();
      const { body: invoice } = await call('createCommissionInvoice', [order.id, profileId]).expect(200);
      expect(invoice).toMatchObject({ kind: 'commission', orderId: order.id });
      expect(invoice.name).toMatch(new RegExp(`^CM-${new Date().getUTCFullYear()}-\\d{6}\\.pdf$`));
      const text = await textOf(invoice);
      expect(text).toContain('Commission invoice');
      expect(text).toMatch(/Net\s*€3\.70/);
      expect(text).toMatch(/VAT \(21%\)\s*€0\.78/);
      expect(text).toMatch(/Total due\s*€4\.48/);
    });

    it('should use the order currency and its decimals', async () => {
      const { order, profileId } = await sellerOrder({ price: 1500, currency: 'JPY' });
      const text = await textOf((await call('createCommissionInvoice', [order.id, profileId]).expect(200)).body);
      expect(text).toContain('Currency: JPY');
      expect(text).toMatch(/Net\s*¥450/);
      expect(text).toMatch(/Total due\s*¥545/);
    });
  });

  describe('buyer-to-vendor invoice (orderServiceImpl, through the same invoice builder)', () => {
    it('should answer the invoice issued on payment, in the seller series, however often asked', async () => {
      const { order } = await sellerOrder();
      const invoice = async () =>
        (await orderCall(t, 'createInvoiceBuyerToVendor', [order.id], admin).expect(200)).body as AttachmentBody;
      const first = await invoice();
      const year = new Date().getUTCFullYear();
      expect(first).toMatchObject({
        name: `INV-${year}-000001.pdf`,
        kind: 'buyer-to-vendor',
      });
      expect((await invoice()).id).toBe(first.id);
      expect(await textOf(first)).toMatch(/Subtotal\s*€37\.02/);
    });
  });

  describe('retrieveContact', () => {
    it('should give the contact an invoice was addressed to, and 404 for unknown ids', async () => {
      const updated = await t.callBean('accountingManagerServiceImpl', 'updateContact', [], { token: admin });
      const contact = updated.body;
      expect((await call('retrieveContact', [contact.id]).expect(200)).body).toEqual(contact);
      await call('retrieveContact', ['0123456789abcdef01234567']).expect(404);
      await call('retrieveContact', ['nope']).expect(404);
    });
  });
});

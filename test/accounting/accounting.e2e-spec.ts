import { Types } from 'mongoose';
import { Role } from '../../src/common/principal';
import { BinaryStore } from '../../src/services/binaries/binary-store';
import { INVOICES_BUCKET } from '../../src/services/accounting/invoices/invoice.service';
import { Buyer, checkOut, chooseCard, createBuyer, orderCall } from '../orders/support/order-calls';
import { createOffer } from '../orders/support/order-fixtures';
import { pdfPages } from '../support/pdf-text';
import { startTestApp, TestApp } from '../support/test-app';
import { createProfile, linkSellerProfile } from './support/seller-profiles';

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
    const offer = await createOffer(t, { price, currency });
    const profileId = await createProfile(t);
    await linkSellerProfile(t, offer.sellerId, profileId);
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 3 }]);
    if (pay) {
      await chooseCard(t, buyer, order.id, 'pm_card_visa').expect(200);
      expect((await orderCall(t, 'pay', [order.id], buyer.token).expect(200)).body.orderStatus).toBe('PAID');
    }
    return { order, profileId };
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
      expect(order).toMatchObject({ subtotal: 3702, tax: 777, total: 4479 });
      const { body: invoice } = await call('createPayoutInvoice', [order.id, profileId]).expect(200);
      const name = `PO-${order.id}.pdf`;
      expect(invoice).toMatchObject({ name, contentType: 'application/pdf', orderId: order.id, kind: 'payout' });
      expect(new Date(invoice.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

      const stored = await t.app.get(BinaryStore).read(new Types.ObjectId(invoice.id), INVOICES_BUCKET);
      expect(stored.length).toBe(invoice.size);
      expect(stored.subarray(0, 5).toString()).toBe('%PDF-');

      const text = await textOf(invoice);
      const parties = ['Payout statement', 'Green Market BV', 'Fern & Moss Nursery', 'NL123456789B01'];
      for (const expected of [...parties, 'Currency: EUR', '€12.34']) expect(text).toContain(expected);
      expect(text).toMatch(/Subtotal\s*€37\.02/);
      expect(text).toMatch(/Tax \(21%\)\s*€7\.77/);
      expect(text).toMatch(/Total paid by the buyer\s*€44\.79/);
      expect(text).toMatch(/Commission \(10%\)\s*-€3\.70/);
      expect(text).toMatch(/VAT on commission \(21%\)\s*-€0\.78/);
      expect(text).toMatch(/Payout\s*€40\.31/);
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
      const files = await t.app.get(BinaryStore).list({ 'metadata.orderId': order.id }, INVOICES_BUCKET);
      expect(files.map((file) => file._id.toHexString())).toEqual([answers[0].body.id]);
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
      expect(invoice).toMatchObject({ name: `CM-${order.id}.pdf`, kind: 'commission', orderId: order.id });
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
    it('should answer the stored invoice for the same content and issue a new one for a changed order', async () => {
      const fern = await createOffer(t, { price: 500 });
      const moss = await createOffer(t, { price: 700, sellerId: fern.sellerId });
      const lines = [fern, moss].map(({ sellerSkuId }) => ({ sellerSkuId, quantity: 1 }));
      const [order] = await checkOut(t, buyer, lines);
      const invoice = async () =>
        (await orderCall(t, 'createInvoiceBuyerToVendor', [order.id], admin).expect(200)).body as AttachmentBody;
      const first = await invoice();
      expect(first).toMatchObject({ name: `INV-${order.id}.pdf`, kind: 'buyer-to-vendor' });
      expect((await invoice()).id).toBe(first.id);

      const mossLine = order.commerceItems.find((item) => item.sellerSkuId === moss.sellerSkuId)!;
      await orderCall(t, 'removeCommerceItemFromOrder', [order.id, mossLine.id], admin).expect(200);
      const changed = await invoice();
      expect(changed.id).not.toBe(first.id);
      expect(await textOf(changed)).toMatch(/Subtotal\s*€5\.00/);
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

import { Role } from '../../src/common/principal';
import { InvoiceIssuer } from '../../src/services/accounting/invoices';
import { CreditNoteRetry } from '../../src/services/orders/credit-note-retry';
import { TestStompClient } from '../realtime/stomp-client';
import { Buyer, checkOut, createBuyer, OrderBody, orderCall, payOrder } from '../orders/support/order-calls';
import { FERN_AND_MOSS, setCompanyProfile } from '../support/marketplace';
import { createOffer, Offer } from '../orders/support/order-fixtures';
import { pdfPages } from '../support/pdf-text';
import { startTestApp, TestApp } from '../support/test-app';

interface DocumentSummary {
  id: string;
  number: string;
  kind: string;
  orderId: string;
  total: number;
  currency: string;
}
type RefundedOrder = OrderBody & { refunds: { status: string; amount: number }[] };

const ACCOUNTING = 'accountingServiceImpl';
const LEGAL_NAME = 'Fern & Moss Nursery B.V.';
const address = {
  name: 'Ann Buyer',
  street: 'Canal Street',
  houseNumber: '12',
  city: 'Amsterdam',
  postalCode: '1011AA',
  country: 'NL',
};
const DESIGN_ERROR = { path: '/api/v1/bean/request', timestamp: expect.any(String), requestId: expect.any(String) };

// Refunds settle by the sandbox's webhook, each rendering a credit note PDF, six at once in one test: on a loaded
// machine that takes far longer than on an idle one, so the wait is generous (and still bounded).
const SETTLED_WITHIN_MS = 60_000;

/**
 * Issue 24: invoices and credit notes name the seller's company (legal name, address, VAT id), the buyer (name,
 * address) and the order; a settled refund gives a credit note numbered without gaps in the seller's credit note
 * series; the seller chooses its number patterns (validated; no internal id by default). PDFs parsed back.
 */
describe('credit notes and seller document numbers', () => {
  let t: TestApp;
  let admin: string;
  let seller: Buyer;
  let buyer: Buyer;
  let stranger: Buyer;
  let offer: Offer;
  let stomp: TestStompClient;
  const year = new Date().getUTCFullYear();

  beforeAll(async () => {
    t = await startTestApp({ env: { ORDER_TAX_RATE: '21', CARD_PAYMENT_WEBHOOK_SECRET: 'card-secret-for-tests' } });
    admin = t.tokenFor(Role.ADMIN);
    [seller, buyer, stranger] = [await createBuyer(t), await createBuyer(t), await createBuyer(t)];
    offer = await createOffer(t, { sellerUser: seller, price: 1000, quantity: 500 });
    await setCompanyProfile(t, seller, { ...FERN_AND_MOSS, companyName: LEGAL_NAME });
    stomp = await TestStompClient.connect(t.url, { token: buyer.token });
  });

  afterAll(async () => {
    await stomp.disconnect();
    await t.stop();
  });

  const documentsOf = async (orderId: string, token: string): Promise<DocumentSummary[]> =>
    (await t.http.get(`/api/v1/invoices/orders/${orderId}`).set('Authorization', `Bearer ${token}`).expect(200))
      .body as DocumentSummary[];
  const pdfText = async (documentId: string, token: string): Promise<string> => {
    const { body } = await t.http
      .get(`/api/v1/invoices/${documentId}/pdf`)
      .set('Authorization', `Bearer ${token}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return (await pdfPages(body as Buffer)).join('\n');
  };
  const paidOrder = async (quantity: number): Promise<string> => {
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity }]);
    await stomp.subscribe(`/topic/order/${order.id}`);
    await payOrder(t, buyer, order.id, admin, { shippingAddress: address });
    return order.id;
  };
  /** The seller refunds `quantity` units; resolves once the provider's webhook has settled the `nth` refund. */
  const refund = async (orderId: string, quantity: number, nth = 1): Promise<RefundedOrder> => {
    const items = [{ sellerSkuId: offer.sellerSkuId, quantity }];
    await orderCall(t, 'refundOrder', [{ orderId, items }], seller.token).expect(200);
    const settled = await stomp.next<{ data: RefundedOrder }>(
      `/topic/order/${orderId}`,
      ({ data }) => data.refunds.filter((one) => one.status === 'SUCCEEDED').length === nth,
      SETTLED_WITHIN_MS,
    );
    return settled.data;
  };
  const numbering = (request: object, token = seller.token) =>
    t.callBean(ACCOUNTING, 'setDocumentNumbering', [request], { token });
  const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;

  it("should put the seller's company, the buyer and the order on the invoice, numbered without an internal id", async () => {
    const orderId = await paidOrder(2);
    const [invoice] = await documentsOf(orderId, buyer.token);
    expect(invoice).toMatchObject({ kind: 'buyer-to-vendor', orderId, number: `INV-${year}-000001` });
    const text = await pdfText(invoice.id, buyer.token);
    for (const line of [LEGAL_NAME, 'Oudegracht 1', '3511 AA Utrecht', 'VAT ID NL123456789B01', `Order: ${orderId}`])
      expect(text).toContain(line);
    expect(text).toMatch(/To: Ann Buyer\s*Canal Street 12\s*1011AA Amsterdam\s*NL/);
    expect(text).not.toContain(offer.sellerId);
  });

  it('should issue a credit note for each settled refund, gapless in its own series, for buyer and seller', async () => {
    const orderId = await paidOrder(3);
    const first = await refund(orderId, 1);
    const second = await refund(orderId, 1, 2);

    const documents = await documentsOf(orderId, seller.token);
    expect(documents).toEqual(await documentsOf(orderId, buyer.token));
    const [invoice, ...notes] = documents;
    expect(invoice.kind).toBe('buyer-to-vendor');
    expect(notes.map(({ kind, number, total }) => ({ kind, number, total }))).toEqual([
      { kind: 'credit-note', number: `CN-${year}-000001`, total: first.refunds[0].amount },
      { kind: 'credit-note', number: `CN-${year}-000002`, total: second.refunds[1].amount },
    ]);

    const text = await pdfText(notes[0].id, seller.token);
    expect(text).toContain(`Credit note number: CN-${year}-000001`);
    expect(text).toContain(`Corrects invoice: ${invoice.number}`);
    expect(text).toContain(LEGAL_NAME);
    expect(text).toContain('VAT ID NL123456789B01');
    expect(text).toContain('Ann Buyer');
    expect(text).toMatch(new RegExp(`Goods refunded\\s*${euros(1000).replace('.', '\\.')}`));
    expect(text).toMatch(new RegExp(`Tax \\(21%\\)\\s*${euros(210).replace('.', '\\.')}`));
    expect(text).toMatch(new RegExp(`Total credited\\s*${euros(first.refunds[0].amount).replace('.', '\\.')}`));

    const { body } = await t.http.get('/api/v1/invoices/mine?size=200').set('Authorization', `Bearer ${buyer.token}`);
    expect((body as { content: DocumentSummary[] }).content.map((one) => one.id)).toEqual(
      expect.arrayContaining(notes.map((one) => one.id)),
    );
  });

  it('should number credit notes of refunds settled at once without gaps or duplicates', async () => {
    const before = await creditNoteSequences();
    const orders: string[] = [];
    for (let i = 0; i < 6; i++) orders.push(await paidOrder(1)); // one buyer checks out one order at a time
    await Promise.all(orders.map((orderId) => refund(orderId, 1)));
    const after = await creditNoteSequences();
    expect(after).toEqual(Array.from({ length: before.length + 6 }, (_, i) => i + 1));
  });

  /** The sequence numbers of every credit note of the seller, sorted (the seller sees all its orders' documents). */
  async function creditNoteSequences(): Promise<number[]> {
    const { body } = await orderCall(t, 'getSellerOrdersPaged', [{ size: 200 }], seller.token).expect(200);
    const orderIds = (body as { content: OrderBody[] }).content.map((order) => order.id);
    const documents = (await Promise.all(orderIds.map((id) => documentsOf(id, seller.token)))).flat();
    return documents
      .filter((one) => one.kind === 'credit-note')
      .map((one) => Number(/^CN-\d{4}-(\d{6})$/.exec(one.number)![1]))
      .sort((a, b) => a - b);
  }

  it('should issue a credit note that failed at settlement by the retry sweep, once', async () => {
    const orderId = await paidOrder(2);
    const issue = jest.spyOn(t.app.get(InvoiceIssuer), 'issue').mockRejectedValueOnce(new Error('register down'));
    try {
      await refund(orderId, 1);
      expect(issue).toHaveBeenCalledTimes(1);
    } finally {
      issue.mockRestore();
    }
    expect((await documentsOf(orderId, buyer.token)).map((one) => one.kind)).toEqual(['buyer-to-vendor']);

    const later = new Date(Date.now() + 3_600_000);
    await Promise.all([1, 2].map(() => t.app.get(CreditNoteRetry).sweep(later)));
    await t.app.get(CreditNoteRetry).sweep(later);
    const documents = await documentsOf(orderId, buyer.token);
    expect(documents.map((one) => one.kind)).toEqual(['buyer-to-vendor', 'credit-note']);
    expect(documents[1].number).toMatch(/^CN-\d{4}-\d{6}$/);
  });

  it('should hide an order’s documents from anyone but its buyer, its seller and ADMINs', async () => {
    const orderId = await paidOrder(1);
    const [invoice] = await documentsOf(orderId, admin);
    expect(await documentsOf(orderId, stranger.token)).toEqual([]);
    await t.http.get(`/api/v1/invoices/${invoice.id}/pdf`).set('Authorization', `Bearer ${stranger.token}`).expect(404);
    await t.http.get(`/api/v1/invoices/orders/${orderId}`).expect(401);
    const { body } = await t.http
      .get('/api/v1/invoices/orders/not-an-id')
      .set('Authorization', `Bearer ${buyer.token}`)
      .expect(400);
    expect(body).toMatchObject({ status: 400, requestId: expect.any(String) });
  });

  describe('setDocumentNumbering', () => {
    it("should number the seller's next documents by its patterns, the year's sequence going on", async () => {
      const { body } = await numbering({
        invoicePattern: 'FM/{YYYY}/{SEQ:4}',
        creditNotePattern: 'FMC{YYYY}{SEQ}',
      }).expect(200);
      expect(body).toEqual({
        sellerId: offer.sellerId,
        invoicePattern: 'FM/{YYYY}/{SEQ:4}',
        creditNotePattern: 'FMC{YYYY}{SEQ}',
      });
      const orderId = await paidOrder(2);
      const notesSoFar = (await creditNoteSequences()).length; // the seller's credit notes so far
      await refund(orderId, 1);
      const [invoice, note] = await documentsOf(orderId, seller.token);
      expect(invoice.number).toMatch(new RegExp(`^FM/${year}/\\d{4}$`));
      expect(Number(invoice.number.split('/')[2])).toBeGreaterThan(1);
      expect(note.number).toBe(`FMC${year}${notesSoFar + 1}`);
      expect(await pdfText(note.id, buyer.token)).toContain(`Corrects invoice: ${invoice.number}`);

      const { body: admins } = await numbering(
        { sellerId: offer.sellerId, invoicePattern: 'INV-{YYYY}-{SEQ:6}' },
        admin,
      ).expect(200);
      expect(admins).toMatchObject({ invoicePattern: 'INV-{YYYY}-{SEQ:6}', creditNotePattern: 'FMC{YYYY}{SEQ}' });
      const { body: trail } = await t
        .callBean('auditServiceImpl', 'getAuditTrail', ['seller', offer.sellerId], { token: admin })
        .expect(200);
      const numberingChanges = (trail as { action: string }[]).filter((e) => e.action === 'documentNumbering.update');
      expect(numberingChanges).toEqual([
        expect.objectContaining({
          action: 'documentNumbering.update',
          actor: expect.objectContaining({ role: 'ADMIN' }),
        }),
        expect.objectContaining({
          action: 'documentNumbering.update',
          actor: expect.objectContaining({ id: seller.id }),
          details: { invoicePattern: 'FM/{YYYY}/{SEQ:4}', creditNotePattern: 'FMC{YYYY}{SEQ}' },
        }),
      ]);
    });

    it.each([
      ['no sequence', { invoicePattern: 'INV-{YYYY}' }],
      ['no year', { creditNotePattern: 'CN-{SEQ:6}' }],
      ['an unknown token', { invoicePattern: '{YYYY}-{SEQ}-{SELLER}' }],
      ['a space', { invoicePattern: 'INV {YYYY}-{SEQ}' }],
      ['too long', { invoicePattern: `${'X'.repeat(40)}{YYYY}{SEQ}` }],
      ['a number', { invoicePattern: 5 }],
      ['an operator', { invoicePattern: { $ne: null } }],
      ['an operator for the seller', { sellerId: { $gt: '' }, invoicePattern: 'A{YYYY}{SEQ}' }],
    ])('should answer 400 with details for %s', async (_, request) => {
      const { body } = await numbering(request).expect(400);
      expect(body).toMatchObject({ status: 400, error: 'Bad Request', ...DESIGN_ERROR });
      expect(body.details).toEqual(expect.any(Array));
    });

    it('should refuse an empty change (400), another seller (403), a non-seller (404) and a guest (401)', async () => {
      await numbering({}).expect(400);
      const other = await createOffer(t, { sellerUser: stranger });
      const { body } = await numbering({ sellerId: other.sellerId, invoicePattern: 'X{YYYY}{SEQ}' }).expect(403);
      expect(body).toMatchObject({ status: 403, error: 'Access denied', ...DESIGN_ERROR });
      await numbering({ invoicePattern: 'X{YYYY}{SEQ}' }, buyer.token).expect(404);
      await t.callBean(ACCOUNTING, 'setDocumentNumbering', [{ invoicePattern: 'X{YYYY}{SEQ}' }]).expect(401);
      await numbering({ invoicePattern: 'X{YYYY}{SEQ}' }, admin).expect(400);
    });
  });
});

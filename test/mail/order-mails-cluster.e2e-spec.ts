import { ParsedMail, simpleParser } from 'mailparser';
import { Role } from '../../src/common/principal';
import { InvoiceIssuer } from '../../src/services/accounting/invoices';
import { OrderMailState } from '../../src/services/order-mail/order-mail.schema';
import { SmtpInbox } from '../auth/support/smtp-inbox';
import { Buyer, checkOut, createBuyer, payOrder } from '../orders/support/order-calls';
import { createOffer } from '../orders/support/order-fixtures';
import { Cluster, startCluster } from '../support/cluster';
import { TcpProxy } from '../support/tcp-proxy';
import { TestApp } from '../support/test-app';
import { eventually, outboxOf } from './support/mail-reading';

const ORDERS = 3;

/**
 * Two instances share one database and one SMTP server; both poll the mail outbox. The SMTP server is away while the
 * orders are placed and paid, so every mail's first attempt fails and its retries are left to whichever instance
 * claims them; one order's `order.paid` is lost on its first delivery (its invoice fails) and comes again from the
 * retry sweep. Each mail still arrives exactly once.
 */
describe('order mails on two instances', () => {
  let inbox: SmtpInbox;
  let proxy: TcpProxy;
  let cluster: Cluster;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    inbox = new SmtpInbox();
    const smtpPort = Number(new URL(await inbox.start()).port);
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: smtpPort });
    cluster = await startCluster({
      env: { SMTP_URL: `smtp://127.0.0.1:${proxy.port}`, INVOICE_RETRY_AFTER: '2s' },
    });
    [a, b] = cluster.instances;
  });

  afterAll(async () => {
    await cluster?.stop();
    await proxy?.stop();
    await inbox?.stop();
  });

  const mailsTo = (address: string): Promise<ParsedMail[]> =>
    Promise.all(inbox.messages.filter(({ to }) => to.includes(address)).map(({ raw }) => simpleParser(raw)));
  const subjectsTo = async (address: string): Promise<string[]> =>
    (await mailsTo(address)).map(({ subject }) => subject ?? '').sort();

  it('should send each mail of each order exactly once, also after SMTP failures and a redelivered order.paid', async () => {
    const admin = a.tokenFor(Role.ADMIN);
    const seller = await createBuyer(a);
    const buyers: Buyer[] = [];
    const orderIds: string[] = [];
    await proxy.cut();
    // Never restored: the instance is thrown away with the cluster. A retry sweep may hold the spy when the test goes
    // on, and a restored jest spy answers undefined to such a held call (an invoice "issued" without a record).
    const issue = jest.spyOn(a.app.get(InvoiceIssuer), 'issue').mockRejectedValueOnce(new Error('register down'));
    try {
      for (let i = 0; i < ORDERS; i++) {
        const offer = await createOffer(a, { sellerUser: seller });
        const buyer = await createBuyer(a);
        const [order] = await checkOut(a, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
        // Paid on the other instance: its listeners queue the paid mails there.
        expect((await payOrder(i === 0 ? a : b, buyer, order.id, admin)).orderStatus).toBe('PAID');
        buyers.push(buyer);
        orderIds.push(order.id);
      }
      // The first order's invoice failed on its first delivery (the sweep may have retried it since).
      await expect(issue.mock.results[0].value).rejects.toThrow('register down');
      await eventually(
        () =>
          outboxOf(b)
            .find({ orderId: { $in: orderIds } })
            .lean()
            .exec(),
        (rows) => rows.length === ORDERS * 3 && rows.every((row) => row.lastError !== undefined),
      );
    } finally {
      await proxy.restore();
    }

    const rows = await eventually(
      () =>
        outboxOf(a)
          .find({ orderId: { $in: orderIds } })
          .lean()
          .exec(),
      (found) => found.every((row) => row.state === OrderMailState.SENT),
    );
    expect(rows.map(({ state }) => state)).toEqual(Array(ORDERS * 3).fill(OrderMailState.SENT));
    for (const [i, buyer] of buyers.entries()) {
      expect(await subjectsTo(`${buyer.username}@example.com`)).toEqual(
        [`Payment received for order ${orderIds[i]}`, `Your order ${orderIds[i]}`].sort(),
      );
    }
    expect(await subjectsTo(`${seller.username}@example.com`)).toEqual(
      orderIds.map((id) => `Paid order ${id} to ship`).sort(),
    );
    // The order whose first order.paid was lost got its invoice from the sweep (one), and its paid mail carries it.
    const first = await mailsTo(`${buyers[0].username}@example.com`);
    const paid = first.find(({ subject }) => subject === `Payment received for order ${orderIds[0]}`);
    expect(paid?.attachments.map(({ contentType }) => contentType)).toEqual(['application/pdf']);
    const { body } = await b.http
      .get('/api/v1/invoices/mine')
      .set('Authorization', `Bearer ${buyers[0].token}`)
      .expect(200);
    const invoices = (body as { content: { orderId: string; number: string }[] }).content;
    expect(invoices.filter(({ orderId }) => orderId === orderIds[0])).toHaveLength(1);
    expect(paid?.attachments[0].filename).toBe(`${invoices[0].number}.pdf`);
  });
});

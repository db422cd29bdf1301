import { Injectable } from '@nestjs/common';
import { MailAttachment, MailService } from '../../mail/mail.service';
import { BuyerInvoice } from '../orders/buyer-invoice';
import { OrderStore } from '../orders/order-store';
import { StoredOrder } from '../orders/order.view';
import { orderMailData } from './order-mail-data';
import { OrderMailTemplates } from './order-mail-templates';
import { OrderMailKind, StoredOrderMail } from './order-mail.schema';

/** Renders one queued mail from its order as it is now and sends it through the mail module. */
@Injectable()
export class OrderMailSender {
  constructor(
    private readonly store: OrderStore,
    private readonly templates: OrderMailTemplates,
    private readonly invoices: BuyerInvoice,
    private readonly mail: MailService,
  ) {}

  /** @throws when the order cannot be read, its invoice is not issued yet or the mail not handed over: retried */
  async send(queued: StoredOrderMail): Promise<void> {
    const order = await this.store.find(queued.orderId);
    const data = orderMailData(order, queued.lang, queued.refundId);
    const { subject, text } = await this.templates.render(queued.kind, queued.lang, data);
    const attachments = queued.kind === OrderMailKind.PAID ? [await this.invoiceOf(order)] : [];
    await this.mail.send({ to: queued.to, subject, text, attachments });
  }

  /**
   * The buyer's invoice, issued by accounting on `order.paid`. The mail does not issue it: while it is missing (its
   * issuing failed and waits for the retry sweep) the mail waits too, retried with the outbox's back-off.
   */
  private async invoiceOf(order: StoredOrder): Promise<MailAttachment> {
    const invoice = await this.invoices.issued(order);
    if (!invoice) throw new Error(`The invoice of order ${String(order._id)} is not issued yet`);
    return { filename: invoice.name, content: Buffer.from(invoice.data, 'base64'), contentType: invoice.contentType };
  }
}

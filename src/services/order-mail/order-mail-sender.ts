import { Injectable } from '@nestjs/common';
import { MailAttachment, Mailer } from '../../mail/mailer';
import { Attachment } from '../accounting/invoices';
import { BuyerCreditNote } from '../orders/buyer-credit-note';
import { BuyerInvoice } from '../orders/buyer-invoice';
import { OrderRepository } from '../orders/order.repository';
import { StoredOrder } from '../orders/order.view';
import { orderMailData } from './order-mail-data';
import { OrderMailTemplates } from './order-mail-templates';
import { OrderMailKind, StoredOrderMail } from './order-mail.schema';

/** Renders one queued mail from its order as it is now and sends it through the mail module. */
@Injectable()
export class OrderMailSender {
  constructor(
    private readonly store: OrderRepository,
    private readonly templates: OrderMailTemplates,
    private readonly invoices: BuyerInvoice,
    private readonly creditNotes: BuyerCreditNote,
    private readonly mail: Mailer,
  ) {}

  /** @throws when the order cannot be read, its invoice is not issued yet or the mail not handed over: retried */
  async send(queued: StoredOrderMail): Promise<void> {
    const order = await this.store.find(queued.orderId);
    const data = orderMailData(order, queued.lang, queued.refundId);
    const { subject, text } = await this.templates.render(queued.kind, queued.lang, data);
    await this.mail.send({ to: queued.to, subject, text, attachments: await this.attachmentsOf(queued, order) });
  }

  /** The paid mail carries the invoice; a refund's mail (refunded, or canceled after payment) its credit note. */
  private async attachmentsOf(queued: StoredOrderMail, order: StoredOrder): Promise<MailAttachment[]> {
    if (queued.kind === OrderMailKind.PAID) return [await this.invoiceOf(order)];
    const refundMail = queued.kind === OrderMailKind.REFUNDED || queued.kind === OrderMailKind.CANCELED;
    return refundMail && queued.refundId ? [await this.creditNoteOf(order, queued.refundId)] : [];
  }

  /**
   * The buyer's invoice, issued by accounting on `order.paid`. The mail does not issue it: while it is missing (its
   * issuing failed and waits for the retry sweep) the mail waits too, retried with the outbox's back-off.
   */
  private async invoiceOf(order: StoredOrder): Promise<MailAttachment> {
    const invoice = await this.invoices.issued(order);
    if (!invoice) throw new Error(`The invoice of order ${String(order._id)} is not issued yet`);
    return asMailAttachment(invoice);
  }

  /** The refund's credit note, issued when the refund settled; like the invoice, the mail waits while it is missing. */
  private async creditNoteOf(order: StoredOrder, refundId: string): Promise<MailAttachment> {
    const note = await this.creditNotes.issued(order, refundId);
    if (!note) throw new Error(`The credit note of refund ${refundId} of order ${String(order._id)} is not issued yet`);
    return asMailAttachment(note);
  }
}

function asMailAttachment(document: Attachment): MailAttachment {
  return { filename: document.name, content: Buffer.from(document.data, 'base64'), contentType: document.contentType };
}

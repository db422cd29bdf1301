import { Injectable, Logger } from '@nestjs/common';
import { Attachment, DocumentNumbering, InvoiceKind, InvoiceRequest, InvoiceIssuer } from '../accounting/invoices';
import { amounts } from './order-drafts';
import { BuyerInvoice } from './buyer-invoice';
import { InvoiceParties } from './invoice-parties';
import { OrderRefund, OrderRefundStatus } from './order-parts.schema';
import { OrderRepository } from './order.repository';
import { StoredOrder } from './order.view';

/**
 * The seller's credit note to the buyer for one settled refund: it corrects the order's invoice (named on it) by the
 * refunded units and amount. Numbered in the seller's credit note series (`seller-credit-notes:<sellerId>`, the
 * seller's credit note pattern, `CN-{YYYY}-{SEQ:6}` by default) without gaps like invoices, once per refund (its
 * reference): issuing again answers the note already issued.
 */
@Injectable()
export class BuyerCreditNote {
  private readonly logger = new Logger(BuyerCreditNote.name);

  constructor(
    private readonly orders: OrderRepository,
    private readonly invoices: InvoiceIssuer,
    private readonly invoice: BuyerInvoice,
    private readonly numbering: DocumentNumbering,
    private readonly parties: InvoiceParties,
  ) {}

  /**
   * Issues the note of a refund that has just settled, then removes the order's `creditNoteDueAt` mark (set by the
   * settlement). A failure is logged and never fails the settlement: the mark stays, so {@link CreditNoteRetry}
   * issues the note later, as it does when the process dies before this.
   */
  async issueSafely(order: StoredOrder, refund: OrderRefund): Promise<void> {
    try {
      await this.issue(order, refund);
      await this.clearMark(order);
    } catch (error) {
      const what = `credit note of refund ${refund.reference} of order ${String(order._id)}`;
      this.logger.error(`Could not issue the ${what}; the retry sweep will`, (error as Error).stack);
    }
  }

  /** Issues the notes still missing of the order's settled refunds, then removes its mark; throws on the first failure. */
  async issueMissing(order: StoredOrder): Promise<void> {
    for (const refund of order.refunds ?? []) {
      if (refund.status === OrderRefundStatus.SUCCEEDED) await this.issue(order, refund);
    }
    await this.clearMark(order);
  }

  /** Removes the mark the order was read with; a newer one (a refund settled meanwhile) stays for its own note. */
  private async clearMark(order: StoredOrder): Promise<void> {
    if (order.creditNoteDueAt) await this.orders.clearCreditNoteDue(order._id, order.creditNoteDueAt);
  }

  /** The note of the refund the provider knows as `refundId`, if issued; null otherwise (never issues one). */
  issued(order: StoredOrder, refundId: string): Promise<Attachment | null> {
    const refund = order.refunds?.find((one) => one.refundId === refundId);
    if (!refund) return Promise.resolve(null);
    return this.invoices.issuedOnce(InvoiceKind.CREDIT_NOTE, String(order._id), refund.reference);
  }

  async issue(order: StoredOrder, refund: OrderRefund): Promise<Attachment> {
    const orderId = String(order._id);
    const issued = await this.invoices.issuedOnce(InvoiceKind.CREDIT_NOTE, orderId, refund.reference);
    if (issued) return issued;
    const corrected = await this.invoice.create(order);
    return this.invoices.issue(await this.request(order, refund, corrected.name.replace(/\.pdf$/, '')));
  }

  private async request(order: StoredOrder, refund: OrderRefund, corrects: string): Promise<InvoiceRequest> {
    const { embeddedVendor: vendor, embeddedBuyer: buyer } = order;
    const { creditNotePattern } = await this.numbering.of(vendor.sellerId);
    const lines = refund.items.map(({ sellerSku, quantity }) => {
      const bought = order.commerceItems.find((item) => String(item.sellerSku) === String(sellerSku))!;
      const description = bought.skuName ? `${bought.name} (${bought.skuName})` : bought.name;
      return { description, quantity, unitPrice: bought.unitPrice, amount: bought.unitPrice * quantity };
    });
    const goods = lines.reduce((sum, line) => sum + line.amount, 0);
    // The last refund of an order takes what is left of the total, shipping and its tax included.
    const taxOnly = amounts(goods, order.buyerTaxRate).tax;
    const rest = refund.amount - goods;
    const restLabel = rest > taxOnly ? `Shipping and tax (${order.buyerTaxRate}%)` : `Tax (${order.buyerTaxRate}%)`;
    return {
      series: { key: `seller-credit-notes:${vendor.sellerId}`, pattern: creditNotePattern },
      onePer: { refund: refund.reference },
      buyerUserId: buyer.userId,
      sellerUserId: vendor.userId,
      draft: {
        kind: InvoiceKind.CREDIT_NOTE,
        title: 'Credit note',
        orderId: String(order._id),
        orderedAt: order.createdAt,
        corrects,
        issuer: await this.parties.seller(order),
        recipient: await this.parties.buyer(order),
        currency: order.currencyCode,
        lines,
        summary: [
          { label: 'Goods refunded', amount: goods },
          { label: restLabel, amount: rest },
          { label: 'Total credited', amount: refund.amount },
        ],
      },
    };
  }
}

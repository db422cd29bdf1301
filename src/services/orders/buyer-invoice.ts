import { Injectable } from '@nestjs/common';
import {
  Attachment,
  DocumentNumbering,
  InvoiceKind,
  InvoiceParty,
  InvoiceRequest,
  InvoiceIssuer,
} from '../accounting/invoices';
import { OrderEvent } from '../../events/domain-event-map';
import { OnDomainEvent } from '../../events/domain-events';
import { addressLines, InvoiceParties } from './invoice-parties';
import { OrderStatus } from './order-status';
import { StoredOrder } from './order.view';
import { codedError } from '../../common/errors/coded-exception';

export type { Attachment };

/**
 * An order is invoiced once its buyer has paid: it is PAID, SHIPPED or DELIVERED, or was PAID before a refund or the
 * buyer's cancellation (the sale happened; its invoice is still owed, e.g. when the hook failed and the retry sweep
 * comes after the refund).
 */
function wasPaid(order: StoredOrder): boolean {
  return order.status === OrderStatus.PAID || order.orderTimeLines.some((entry) => entry.status === OrderStatus.PAID);
}

/**
 * The buyer-to-vendor invoice of an order, issued by the accounting module's invoice issuer in the seller's series
 * (numbered by the seller's invoice pattern, `INV-{YYYY}-{SEQ:6}` by default), once per order: asking again answers
 * the invoice already issued.
 */
@Injectable()
export class BuyerInvoice {
  constructor(
    private readonly invoices: InvoiceIssuer,
    private readonly numbering: DocumentNumbering,
    private readonly parties: InvoiceParties,
  ) {}

  /** The order's invoice if it has been issued; null otherwise (never issues one). */
  issued(order: StoredOrder): Promise<Attachment | null> {
    return this.invoices.issuedOnce(InvoiceKind.BUYER_TO_VENDOR, String(order._id));
  }

  /**
   * Issues the invoice as soon as the order is paid, with no admin in the loop. Issuing is idempotent, so a
   * redelivered `order.paid` or two instances settling the same payment still give one invoice; a failure leaves the
   * order marked `invoiceDueAt` and `OrderPaidRetry` emits the event again.
   */
  @OnDomainEvent('order.paid')
  async issueOnPayment({ order }: OrderEvent): Promise<void> {
    await this.create(order);
  }

  /** @throws 409 when the order was never paid and has no invoice yet */
  async create(order: StoredOrder): Promise<Attachment> {
    const issued = await this.invoices.issuedOnce(InvoiceKind.BUYER_TO_VENDOR, String(order._id));
    if (issued) return issued;
    if (!wasPaid(order)) {
      throw codedError(
        'ORDER_STATUS_CONFLICT',
        `Order ${String(order._id)} is ${order.status}: it is invoiced once paid`,
      );
    }
    return this.invoices.issue(await this.request(order));
  }

  private async request(order: StoredOrder): Promise<InvoiceRequest> {
    const { embeddedVendor: vendor, embeddedBuyer: buyer, shippingAddress } = order;
    const { invoicePattern } = await this.numbering.of(vendor.sellerId);
    return {
      series: { key: `seller:${vendor.sellerId}`, pattern: invoicePattern },
      onePer: 'order',
      buyerUserId: buyer.userId,
      sellerUserId: vendor.userId,
      draft: {
        kind: InvoiceKind.BUYER_TO_VENDOR,
        title: 'Invoice',
        orderId: String(order._id),
        orderedAt: order.createdAt,
        issuer: await this.parties.seller(order),
        recipient: await this.parties.buyer(order),
        shipTo: shippingAddress ? shipTo(shippingAddress) : undefined,
        currency: order.currencyCode,
        lines: order.commerceItems.map(({ name, skuName, quantity, unitPrice, total }) => ({
          description: skuName ? `${name} (${skuName})` : name,
          quantity,
          unitPrice,
          amount: total,
        })),
        summary: [
          { label: 'Subtotal', amount: order.subtotal },
          ...(order.shipping ? [{ label: `Shipping (${order.shipping.service})`, amount: order.shipping.amount }] : []),
          { label: `Tax (${order.buyerTaxRate}%)`, amount: order.tax },
          { label: 'Total', amount: order.total },
        ],
      },
    };
  }
}

function shipTo(address: NonNullable<StoredOrder['shippingAddress']>): InvoiceParty {
  return { name: address.name ?? '', details: addressLines(address) };
}

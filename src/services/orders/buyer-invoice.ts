import { Injectable } from '@nestjs/common';
import { Attachment, InvoiceKind, InvoiceService } from '../accounting/invoices';
import { StoredOrder } from './order.view';

export type { Attachment };

/** The buyer-to-vendor invoice of an order, issued by the accounting module's invoice service. */
@Injectable()
export class BuyerInvoice {
  constructor(private readonly invoices: InvoiceService) {}

  create(order: StoredOrder): Promise<Attachment> {
    const orderId = String(order._id);
    const { embeddedVendor: vendor, embeddedBuyer: buyer } = order;
    return this.invoices.issue({
      kind: InvoiceKind.BUYER_TO_VENDOR,
      title: 'Invoice',
      number: `INV-${orderId}`,
      orderId,
      issuer: { name: vendor.name, details: vendor.country ? [vendor.country] : [] },
      recipient: { name: buyer.username, details: buyer.email ? [buyer.email] : [] },
      currency: order.currencyCode,
      lines: order.commerceItems.map(({ name, quantity, unitPrice, total }) => ({
        description: name,
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
      issuedAt: new Date(),
    });
  }
}

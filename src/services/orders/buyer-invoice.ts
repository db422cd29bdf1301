import { Injectable } from '@nestjs/common';
import { Attachment, InvoiceKind, InvoiceParty, InvoiceRequest, InvoiceService } from '../accounting/invoices';
import { OrderStatus } from './order-status';
import { ShippingAddress } from './order.schema';
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
 * The buyer-to-vendor invoice of an order, issued by the accounting module's invoice service in the seller's series
 * (`<sellerId>-<year>-<sequence>`), once per order: asking again answers the invoice already issued.
 */
@Injectable()
export class BuyerInvoice {
  constructor(private readonly invoices: InvoiceService) {}

  /** @throws 409 when the order was never paid and has no invoice yet */
  async create(order: StoredOrder): Promise<Attachment> {
    const request = invoiceRequest(order);
    const issued = await this.invoices.issued(request);
    if (issued) return issued;
    if (!wasPaid(order)) {
      throw codedError(
        'ORDER_STATUS_CONFLICT',
        `Order ${String(order._id)} is ${order.status}: it is invoiced once paid`,
      );
    }
    return this.invoices.issue(request);
  }
}

function invoiceRequest(order: StoredOrder): InvoiceRequest {
  const { embeddedVendor: vendor, embeddedBuyer: buyer, shippingAddress } = order;
  return {
    series: { key: `seller:${vendor.sellerId}`, prefix: vendor.sellerId },
    onePer: 'order',
    buyerUserId: buyer.userId,
    sellerUserId: vendor.userId,
    draft: {
      kind: InvoiceKind.BUYER_TO_VENDOR,
      title: 'Invoice',
      orderId: String(order._id),
      orderedAt: order.createdAt,
      issuer: { name: vendor.name, details: vendor.country ? [vendor.country] : [] },
      recipient: { name: buyer.username, details: buyer.email ? [buyer.email] : [] },
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

function shipTo(address: ShippingAddress): InvoiceParty {
  const street = [address.street, address.houseNumber].filter(Boolean).join(' ');
  const city = [address.postalCode, address.city].filter(Boolean).join(' ');
  const pickupPoint = address.pickupPointId ? `Pickup point ${address.pickupPointId}` : '';
  const details = [street, city, address.country ?? '', pickupPoint].filter(Boolean);
  return { name: address.name ?? '', details };
}

import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { refundedAmount } from '../orders/order-amounts';
import { OrderRepository } from '../orders/order.repository';
import { OrderStatus } from '../orders/order-status';
import { StoredOrder } from '../orders/order.view';
import { ContactBook } from './contact-book';
import { Contact, contactDetails } from './contact.view';
import { Attachment } from './invoices/attachment';
import { InvoiceKind, InvoiceLine, InvoiceSeries, UnnumberedDraft } from './invoices/invoice';
import { InvoiceIssuer } from './invoices/invoice-issuer';
import { settlementOf } from './settlement-amounts';

/** Money has been collected from the buyer only in these states. */
const SETTLED = new Set<OrderStatus>([OrderStatus.PAID, OrderStatus.SHIPPED, OrderStatus.DELIVERED]);

/** The marketplace's numbering series: its commission invoices, and its payout statements (not invoices) apart. */
const COMMISSION_INVOICES: InvoiceSeries = { key: 'platform:commission', pattern: 'CM-{YYYY}-{SEQ:6}' };
const PAYOUT_STATEMENTS: InvoiceSeries = { key: 'platform:payout', pattern: 'PO-{YYYY}-{SEQ:6}' };

/** The marketplace's invoices to a seller about one paid order: the payout statement and the commission invoice. */
@Injectable()
export class OrderInvoices {
  constructor(
    private readonly orders: OrderRepository,
    private readonly contacts: ContactBook,
    private readonly invoices: InvoiceIssuer,
    private readonly config: AppConfig,
  ) {}

  /**
   * What the seller receives: items, shipping, the buyer's tax, less confirmed refunds, less the commission (on the
   * items as sold) with its VAT.
   */
  async payout(orderId: string, profileId: string): Promise<Attachment> {
    const { order, seller } = await this.parties(orderId, profileId);
    const refunded = refundedAmount(order);
    const { commission, commissionTax, payout } = settlementOf({ ...order, refunded });
    return this.issue(order, PAYOUT_STATEMENTS, {
      ...this.header(order, seller, InvoiceKind.PAYOUT, 'Payout statement'),
      lines: itemLines(order),
      summary: [
        { label: 'Subtotal', amount: order.subtotal },
        ...(order.shipping ? [{ label: 'Shipping', amount: order.shipping.amount }] : []),
        { label: `Tax (${order.buyerTaxRate}%)`, amount: order.tax },
        { label: 'Total paid by the buyer', amount: order.total },
        ...(refunded > 0 ? [{ label: 'Refunded to the buyer', amount: -refunded }] : []),
        { label: `Commission (${order.serviceTaxRate}%)`, amount: -commission },
        { label: `VAT on commission (${order.sellerTaxRate}%)`, amount: -commissionTax },
        { label: 'Payout', amount: payout },
      ],
    });
  }

  /** The marketplace's fee on the order's subtotal, with VAT at the seller's rate. */
  async commission(orderId: string, profileId: string): Promise<Attachment> {
    const { order, seller } = await this.parties(orderId, profileId);
    const { commission, commissionTax, commissionTotal } = settlementOf({ ...order, refunded: 0 });
    const description = `Commission ${order.serviceTaxRate}% on ${order.commerceItems.length} item line(s)`;
    return this.issue(order, COMMISSION_INVOICES, {
      ...this.header(order, seller, InvoiceKind.COMMISSION, 'Commission invoice'),
      lines: [{ description, quantity: 1, unitPrice: commission, amount: commission }],
      summary: [
        { label: 'Net', amount: commission },
        { label: `VAT (${order.sellerTaxRate}%)`, amount: commissionTax },
        { label: 'Total due', amount: commissionTotal },
      ],
    });
  }

  /**
   * The paid order and the seller's contact. @throws 404 unknown order or profile, 409 unpaid order, 400 a profile
   * that is not the order's seller
   */
  private async parties(orderId: string, profileId: string): Promise<{ order: StoredOrder; seller: Contact }> {
    const order = await this.orders.find(orderId);
    const profile = await this.contacts.profile(profileId);
    if (!SETTLED.has(order.status)) {
      throw new ConflictException(`Order ${orderId} is ${order.status}: nothing has been paid yet`);
    }
    const vendorProfile = order.embeddedVendor.profileId;
    if (vendorProfile && vendorProfile !== String(profile._id)) {
      throw new BadRequestException(`Profile ${profileId} is not the seller of order ${orderId}`);
    }
    // The contact is written only for an invoice that will be issued.
    return { order, seller: await this.contacts.fromProfile(profile) };
  }

  /** The marketplace's documents about an order: a changed order gets a new one; the seller's user may read them. */
  private issue(order: StoredOrder, series: InvoiceSeries, draft: UnnumberedDraft): Promise<Attachment> {
    return this.invoices.issue({ draft, series, onePer: 'content', sellerUserId: order.embeddedVendor.userId });
  }

  private header(order: StoredOrder, seller: Contact, kind: InvoiceKind, title: string) {
    return {
      kind,
      title,
      orderId: String(order._id),
      issuer: { name: this.config.invoiceIssuerName, details: [] },
      recipient: { name: seller.name, details: contactDetails(seller) },
      currency: order.currencyCode,
    } satisfies Omit<UnnumberedDraft, 'lines' | 'summary'>;
  }
}

function itemLines(order: StoredOrder): InvoiceLine[] {
  return order.commerceItems.map((item) => ({
    description: item.skuName ? `${item.name} (${item.skuName})` : item.name,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    amount: item.total,
  }));
}

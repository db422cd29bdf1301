import { Injectable } from '@nestjs/common';
import { BinaryStore } from '../binaries/binary-store';
import { formatMoney } from '../payments';
import { PdfService } from '../pdf/pdf.service';
import { StoredOrder } from './order.view';

export const INVOICES_BUCKET = 'invoices';

/** A stored document as the API returns it: GridFS id, name, type, size and the bytes in base64. */
export interface Attachment {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  data: string;
}

/** The buyer-to-vendor invoice of an order: a PDF stored in GridFS (`invoices` bucket). */
@Injectable()
export class BuyerInvoice {
  constructor(
    private readonly pdf: PdfService,
    private readonly binaries: BinaryStore,
  ) {}

  async create(order: StoredOrder): Promise<Attachment> {
    const orderId = String(order._id);
    const content = await this.pdf.createPdf(invoiceHtml(order));
    const filename = `invoice-${orderId}.pdf`;
    const metadata = { orderId, kind: 'buyer-to-vendor', contentType: 'application/pdf' };
    const stored = await this.binaries.save(content, filename, metadata, INVOICES_BUCKET);
    const data = content.toString('base64');
    return { id: String(stored._id), filename, contentType: 'application/pdf', size: content.length, data };
  }
}

function invoiceHtml(order: StoredOrder): string {
  const money = (amount: number) => escape(formatMoney(amount, order.currencyCode));
  const rows = order.commerceItems
    .map((item) => [escape(item.name), String(item.quantity), money(item.unitPrice), money(item.total)])
    .map((cells) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
    .join('');
  return `<h1>Invoice ${escape(String(order._id))}</h1>
<p>Seller: ${escape(order.embeddedVendor.name)}</p><p>Buyer: ${escape(order.embeddedBuyer.username)}</p>
<table><tr><th>Item</th><th>Quantity</th><th>Unit price</th><th>Amount</th></tr>${rows}</table>
<p>Subtotal: ${money(order.subtotal)}</p><p>Tax (${order.buyerTaxRate}%): ${money(order.tax)}</p>
<p>Total: ${money(order.total)}</p>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { BinaryStore } from '../../binaries/binary-store';
import { PdfService } from '../../pdf/pdf.service';
import { Attachment, toAttachment } from './attachment';
import { InvoiceKind, InvoiceRequest, UnnumberedDraft } from './invoice';
import { invoiceHtml } from './invoice-html';
import { StoredInvoiceRecord } from './invoice-record.schema';
import { InvoiceRegister } from './invoice-register';

/** GridFS bucket of every invoice PDF. */
export const INVOICES_BUCKET = 'invoices';

/**
 * Issues invoices: numbers and records them in the register (once per order, or per content), renders the PDF with
 * the PDF service and stores it in GridFS. Issuing again answers the invoice already issued, so a retried call,
 * webhook or second instance does not bill twice.
 */
@Injectable()
export class InvoiceIssuer {
  constructor(
    private readonly pdf: PdfService,
    private readonly binaries: BinaryStore,
    private readonly register: InvoiceRegister,
  ) {}

  /** The invoice already issued for the request, if any. */
  async issued(request: InvoiceRequest): Promise<Attachment | null> {
    const record = await this.register.find(onceOf(request));
    return record && toAttachment(record, await this.pdfOf(record));
  }

  /** The document of `kind` already issued once per order (or per refund of it), if any: no request needed. */
  async issuedOnce(kind: InvoiceKind, orderId: string, refund?: string): Promise<Attachment | null> {
    const record = await this.register.find(perOrderKey(kind, orderId, refund ? { refund } : 'order'));
    return record && toAttachment(record, await this.pdfOf(record));
  }

  async issue(request: InvoiceRequest): Promise<Attachment> {
    const once = onceOf(request);
    const record = (await this.register.find(once)) ?? (await this.register.claim(request, once));
    return toAttachment(record, await this.pdfOf(record));
  }

  /**
   * The invoice's PDF; rendered and stored the first time it is asked for. Two callers may both render it: the first
   * file recorded wins and the other removes its own, so the invoice keeps one PDF.
   */
  async pdfOf(record: StoredInvoiceRecord): Promise<Buffer> {
    if (record.fileId) return this.binaries.read(record.fileId, INVOICES_BUCKET);
    const content = await this.pdf.createPdf(invoiceHtml(record.draft));
    const { _id: invoiceId, orderId, kind, number } = record;
    const metadata = { invoiceId, orderId, kind, number, contentType: 'application/pdf' };
    const mine = await this.binaries.save(content, `${number}.pdf`, metadata, INVOICES_BUCKET);
    const kept = await this.register.attachFile(invoiceId, mine._id);
    if (kept.equals(mine._id)) return content;
    await this.binaries.remove(mine._id, INVOICES_BUCKET);
    return this.binaries.read(kept, INVOICES_BUCKET);
  }
}

/** The register's key of what may be issued only once (see `InvoiceRecord.once`). */
function onceOf({ draft, onePer }: InvoiceRequest): string {
  if (onePer === 'content') return `${draft.kind}:${draft.orderId}:${digestOf(draft)}`;
  return perOrderKey(draft.kind, draft.orderId, onePer);
}

function perOrderKey(kind: InvoiceKind, orderId: string, onePer: 'order' | { refund: string }): string {
  return onePer === 'order' ? `${kind}:${orderId}` : `${kind}:${orderId}:refund:${onePer.refund}`;
}

function digestOf(draft: UnnumberedDraft): string {
  return createHash('sha256').update(JSON.stringify(draft)).digest('hex');
}

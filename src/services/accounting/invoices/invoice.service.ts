import { Injectable } from '@nestjs/common';
import { BinaryStore } from '../../binaries/binary-store';
import { PdfService } from '../../pdf/pdf.service';
import { Attachment, toAttachment } from './attachment';
import { InvoiceDraft, InvoiceKind } from './invoice';
import { invoiceHtml } from './invoice-html';

/** GridFS bucket of every invoice PDF. */
export const INVOICES_BUCKET = 'invoices';

/**
 * Issues invoices: renders a draft to PDF with the PDF service and stores it in GridFS. One invoice per order and
 * kind: issuing it again answers the stored one, so a retried call does not bill twice.
 */
@Injectable()
export class InvoiceService {
  constructor(
    private readonly pdf: PdfService,
    private readonly binaries: BinaryStore,
  ) {}

  async issue(draft: InvoiceDraft): Promise<Attachment> {
    const existing = await this.find(draft.orderId, draft.kind);
    if (existing) return existing;
    const content = await this.pdf.createPdf(invoiceHtml(draft));
    const metadata = { orderId: draft.orderId, kind: draft.kind, number: draft.number, contentType: 'application/pdf' };
    const file = await this.binaries.save(content, `${draft.number}.pdf`, metadata, INVOICES_BUCKET);
    return toAttachment(file, content);
  }

  async find(orderId: string, kind: InvoiceKind): Promise<Attachment | null> {
    const [file] = await this.binaries.list({ 'metadata.orderId': orderId, 'metadata.kind': kind }, INVOICES_BUCKET, 1);
    return file ? toAttachment(file, await this.binaries.read(file._id, INVOICES_BUCKET)) : null;
  }
}

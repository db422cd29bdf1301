import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { BinaryStore } from '../../binaries/binary-store';
import { PdfService } from '../../pdf/pdf.service';
import { Attachment, toAttachment } from './attachment';
import { InvoiceDraft, InvoiceKind } from './invoice';
import { invoiceHtml } from './invoice-html';

/** GridFS bucket of every invoice PDF. */
export const INVOICES_BUCKET = 'invoices';

/**
 * Issues invoices: renders a draft to PDF with the PDF service and stores it in GridFS. Issuing the same content for
 * the same order and kind again answers the stored invoice, so a retried call does not bill twice; an order whose
 * amounts changed since gets a new one.
 */
@Injectable()
export class InvoiceService {
  constructor(
    private readonly pdf: PdfService,
    private readonly binaries: BinaryStore,
  ) {}

  async issue(draft: InvoiceDraft): Promise<Attachment> {
    const key = { orderId: draft.orderId, kind: draft.kind, digest: digestOf(draft) };
    const existing = await this.find(key);
    if (existing) return existing;
    const content = await this.pdf.createPdf(invoiceHtml(draft));
    const metadata = { ...key, number: draft.number, contentType: 'application/pdf' };
    const file = await this.binaries.save(content, `${draft.number}.pdf`, metadata, INVOICES_BUCKET);
    return toAttachment(file, content);
  }

  private async find(key: { orderId: string; kind: InvoiceKind; digest: string }): Promise<Attachment | null> {
    const filter = { 'metadata.orderId': key.orderId, 'metadata.kind': key.kind, 'metadata.digest': key.digest };
    const [file] = await this.binaries.list(filter, INVOICES_BUCKET, 1);
    return file ? toAttachment(file, await this.binaries.read(file._id, INVOICES_BUCKET)) : null;
  }
}

/** What the invoice says, without the moment it was issued. */
function digestOf(draft: InvoiceDraft): string {
  const { issuedAt: _issuedAt, ...content } = draft;
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

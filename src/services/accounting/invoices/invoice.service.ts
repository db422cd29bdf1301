import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { BinaryStore, StoredBinary } from '../../binaries/binary-store';
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
    const existing = await this.first(key);
    if (existing) return toAttachment(existing, await this.binaries.read(existing._id, INVOICES_BUCKET));
    const content = await this.pdf.createPdf(invoiceHtml(draft));
    const metadata = { ...key, number: draft.number, contentType: 'application/pdf' };
    const mine = await this.binaries.save(content, `${draft.number}.pdf`, metadata, INVOICES_BUCKET);
    return this.keepFirst(key, mine, content);
  }

  /**
   * GridFS has no unique index on metadata, so two concurrent issues may both store the invoice. Each then looks for
   * the first copy by id: every caller agrees on it, and the others remove their own.
   */
  private async keepFirst(key: InvoiceKey, mine: StoredBinary, content: Buffer): Promise<Attachment> {
    const first = (await this.first(key))!;
    if (first._id.equals(mine._id)) return toAttachment(mine, content);
    await this.binaries.remove(mine._id, INVOICES_BUCKET);
    return toAttachment(first, await this.binaries.read(first._id, INVOICES_BUCKET));
  }

  private first(key: InvoiceKey): Promise<StoredBinary | null> {
    const filter = { 'metadata.orderId': key.orderId, 'metadata.kind': key.kind, 'metadata.digest': key.digest };
    return this.binaries
      .bucket(INVOICES_BUCKET)
      .find(filter, { sort: { _id: 1 }, limit: 1 })
      .next();
  }
}

interface InvoiceKey {
  orderId: string;
  kind: InvoiceKind;
  digest: string;
}

/** What the invoice says, without the moment it was issued. */
function digestOf(draft: InvoiceDraft): string {
  const { issuedAt: _issuedAt, ...content } = draft;
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

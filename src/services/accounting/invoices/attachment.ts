import { StoredInvoiceRecord } from './invoice-record.schema';

/** A stored invoice as the API returns it: its id in the register, its record, and the PDF bytes in base64. */
export interface Attachment {
  id: string;
  /** `<number>.pdf` */
  name: string;
  contentType: string;
  size: number;
  orderId: string;
  kind: string;
  createdAt: Date;
  data: string;
}

export function toAttachment(record: StoredInvoiceRecord, content: Buffer): Attachment {
  return {
    id: record._id.toHexString(),
    name: `${record.number}.pdf`,
    contentType: 'application/pdf',
    size: content.length,
    orderId: record.orderId,
    kind: record.kind,
    createdAt: record.issuedAt,
    data: content.toString('base64'),
  };
}

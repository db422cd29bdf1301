import { StoredBinary } from '../../binaries/binary-store';

/** A stored invoice as the API returns it: its GridFS id and record, and the PDF bytes in base64. */
export interface Attachment {
  id: string;
  name: string;
  contentType: string;
  size: number;
  orderId: string;
  kind: string;
  createdAt: Date;
  data: string;
}

export function toAttachment(file: StoredBinary, content: Buffer): Attachment {
  const metadata = (file.metadata ?? {}) as { orderId?: string; kind?: string; contentType?: string };
  return {
    id: file._id.toHexString(),
    name: file.filename,
    contentType: metadata.contentType ?? 'application/pdf',
    size: file.length,
    orderId: metadata.orderId ?? '',
    kind: metadata.kind ?? '',
    createdAt: file.uploadDate,
    data: content.toString('base64'),
  };
}

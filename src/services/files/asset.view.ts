import { StoredBinary } from '../binaries/binary-store';

export interface AssetView {
  id: string;
  site: string;
  filename: string;
  contentType: string;
  length: number;
  uploadDate: Date;
  /** Where the bytes are downloaded from. */
  url: string;
}

export function toAssetView(file: StoredBinary): AssetView {
  const metadata = (file.metadata ?? {}) as { site?: string; contentType?: string };
  const id = file._id.toHexString();
  return {
    id,
    site: metadata.site ?? '',
    filename: file.filename,
    contentType: metadata.contentType ?? 'application/octet-stream',
    length: file.length,
    uploadDate: file.uploadDate,
    url: `/api/v1/files/${id}`,
  };
}

/** `inline` or `attachment` with the name in both the quoted ASCII form and the RFC 5987 UTF-8 form. */
export function contentDisposition(filename: string, inline: boolean): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const utf8 = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

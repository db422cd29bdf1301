/** A type uploads may have, recognised by its leading bytes (magic numbers), and the extensions it may carry. */
interface KnownType {
  mime: string;
  extensions: string[];
  matches(head: Buffer): boolean;
}

const startsWith =
  (bytes: number[], offset = 0) =>
  (head: Buffer) =>
    bytes.every((byte, i) => head[offset + i] === byte);
const ascii = (text: string, offset = 0) => startsWith([...Buffer.from(text, 'latin1')], offset);

const BINARY_TYPES: KnownType[] = [
  { mime: 'image/png', extensions: ['png'], matches: startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], matches: startsWith([0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', extensions: ['gif'], matches: (head) => ascii('GIF87a')(head) || ascii('GIF89a')(head) },
  { mime: 'image/webp', extensions: ['webp'], matches: (head) => ascii('RIFF')(head) && ascii('WEBP', 8)(head) },
  { mime: 'application/pdf', extensions: ['pdf'], matches: ascii('%PDF-') },
  { mime: 'video/mp4', extensions: ['mp4', 'm4v'], matches: ascii('ftyp', 4) },
  { mime: 'application/zip', extensions: ['zip'], matches: startsWith([0x50, 0x4b, 0x03, 0x04]) },
  {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extensions: ['xlsx'],
    matches: startsWith([0x50, 0x4b, 0x03, 0x04]),
  },
  {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
    matches: startsWith([0x50, 0x4b, 0x03, 0x04]),
  },
];

/** Text has no magic number: it is accepted for these extensions when it is valid UTF-8 without control bytes. */
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  md: 'text/markdown',
};
// eslint-disable-next-line no-control-regex -- control bytes are what it looks for
const CONTROL_BYTES = /[\x00-\x08\x0b\x0e-\x1f\x7f]/;

/**
 * The media type of an upload, decided by its content and confirmed by its extension; undefined when the content
 * is not an allowed type or does not match the extension (a PDF named `.png`, an HTML page named `.txt`, ...).
 * SVG and HTML are never accepted: served from our origin they could run scripts.
 */
export function detectFileType(content: Buffer, fileName: string): string | undefined {
  const extension = fileName.includes('.') ? fileName.split('.').pop()!.toLowerCase() : '';
  const binary = BINARY_TYPES.find((type) => type.extensions.includes(extension) && type.matches(content));
  if (binary) return binary.mime;
  if (TEXT_TYPES[extension] && isPlainText(content)) return TEXT_TYPES[extension];
  return undefined;
}

function isPlainText(content: Buffer): boolean {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(content);
  if (text.includes('\uFFFD') || CONTROL_BYTES.test(text)) return false;
  return !/<\s*(script|html|svg|iframe)/i.test(text.slice(0, 4096));
}

import { StompVersion } from './frame';

const NEEDS_ESCAPE_12 = /[\\\r\n:]/;
const NEEDS_ESCAPE_11 = /[\\\n:]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\r': '\\r', '\n': '\\n', ':': '\\c' };
const UNESCAPES: Record<string, string> = { '\\\\': '\\', '\\r': '\r', '\\n': '\n', '\\c': ':' };

/** Escapes a header name or value for a 1.1/1.2 frame; 1.1 has no `\r` escape. */
export function escapeHeader(text: string, version: StompVersion): string {
  const pattern = version === '1.2' ? NEEDS_ESCAPE_12 : NEEDS_ESCAPE_11;
  if (!pattern.test(text)) return text;
  return text.replace(version === '1.2' ? /[\\\r\n:]/g : /[\\\n:]/g, (c) => ESCAPES[c]);
}

/** Decodes a 1.1/1.2 escaped header; returns null for an undefined escape (a fatal protocol error). */
export function unescapeHeader(text: string, version: StompVersion): string | null {
  if (!text.includes('\\')) return text;
  let invalid = false;
  const decoded = text.replace(/\\[\s\S]?/g, (seq) => {
    const plain = version === '1.1' && seq === '\\r' ? undefined : UNESCAPES[seq];
    if (plain === undefined) invalid = true;
    return plain ?? '';
  });
  return invalid ? null : decoded;
}

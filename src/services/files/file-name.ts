const MAX_LENGTH = 200;

/**
 * A file name safe to store and to send back in `Content-Disposition`: the last path segment only, letters
 * (any script), digits, space, `.`, `_`, `-`; no leading dots (hidden files), at most 200 characters.
 */
export function sanitizeFileName(original: string): string {
  const base = original.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]/gu, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const name = cleaned.length > MAX_LENGTH ? shorten(cleaned) : cleaned;
  return name === '' ? 'file' : name;
}

function shorten(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  return name.slice(0, MAX_LENGTH - extension.length) + extension;
}

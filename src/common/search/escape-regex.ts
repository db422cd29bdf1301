/** Escapes every regular-expression metacharacter so that user text matches literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** A `$regex` condition (plain JSON, so it can be returned to clients) matching `text` literally, ignoring case. */
export function literalMatch(text: string): { $regex: string; $options: 'i' } {
  return { $regex: escapeRegex(text), $options: 'i' };
}

/** Longest number pattern a seller may set. */
export const MAX_NUMBER_PATTERN_LENGTH = 40;

/** `{YYYY}` and `{SEQ}` / `{SEQ:n}` (at least n digits, 1..10); every other character is literal. */
const TOKEN = /\{(YYYY|SEQ(?::([1-9]|10))?)\}/g;
/** What a pattern may say besides its tokens: no spaces, braces or characters a file name cannot hold. */
const LITERAL = /^[A-Za-z0-9._/-]*$/;

/** The default patterns: a readable prefix, the year and six digits; no internal id. */
export const DEFAULT_INVOICE_PATTERN = 'INV-{YYYY}-{SEQ:6}';
export const DEFAULT_CREDIT_NOTE_PATTERN = 'CN-{YYYY}-{SEQ:6}';

/**
 * Why `pattern` cannot number documents, or null when it can: it holds `{YYYY}` once and `{SEQ}` (or `{SEQ:n}`)
 * once, so numbers are unique within a series and year, and otherwise only letters, digits and `. _ / -`. The token
 * expression has no nested quantifier (linear time) and the length is checked first.
 */
export function numberPatternProblem(pattern: string): string | null {
  if (pattern.length === 0 || pattern.length > MAX_NUMBER_PATTERN_LENGTH) {
    return `a number pattern has 1 to ${MAX_NUMBER_PATTERN_LENGTH} characters`;
  }
  const tokens = [...pattern.matchAll(TOKEN)].map((match) => match[1]);
  const years = tokens.filter((token) => token === 'YYYY').length;
  if (years !== 1 || tokens.length !== 2) {
    return 'a number pattern holds {YYYY} once and {SEQ} (or {SEQ:n}, n 1..10) once';
  }
  if (!LITERAL.test(pattern.replace(TOKEN, ''))) {
    return 'besides {YYYY} and {SEQ}, a number pattern holds only letters, digits and . _ / -';
  }
  return null;
}

/** The number of the `sequence`-th document of `year` in a valid pattern, e.g. `INV-2026-000042`. */
export function formatNumber(pattern: string, year: number, sequence: number): string {
  return pattern.replace(TOKEN, (_, token: string, width?: string) =>
    token === 'YYYY' ? String(year) : String(sequence).padStart(Number(width ?? 1), '0'),
  );
}

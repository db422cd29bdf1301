/**
 * The words of storefront search, as the index stores them and as a query is split: lower case, accents folded
 * (`é` → `e`), split at every character that is neither a letter nor a digit. No regular expression is ever built
 * from these words: queries compare them as index keys (equality and ranges).
 */
export function wordsOf(text: string | undefined): string[] {
  if (!text) return [];
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

/** Words this long or longer tolerate one typo (a letter missing, extra, wrong, or two swapped). */
export const TYPO_MIN_LENGTH = 5;

/** Longest word kept: longer runs (pasted junk) are cut, so one word costs at most this many typo keys. */
const MAX_WORD = 40;

/**
 * The keys under which a word of a name is found with one typo (symmetric delete): the word itself and each form
 * with one letter removed. Two words within one edit share a key: a missing or extra letter (one is the other with a
 * letter removed), a wrong letter (both with that letter removed), two letters swapped (both without either).
 */
export function typoKeysOf(word: string): string[] {
  const cut = word.slice(0, MAX_WORD);
  if (cut.length < TYPO_MIN_LENGTH) return [];
  const keys = new Set([cut]);
  for (let i = 0; i < cut.length; i++) keys.add(cut.slice(0, i) + cut.slice(i + 1));
  return [...keys];
}

/** The distinct words of several texts. */
export function distinctWords(texts: (string | undefined)[]): string[] {
  return [...new Set(texts.flatMap((text) => wordsOf(text).map((word) => word.slice(0, MAX_WORD))))];
}

/** Whether `a` and `b` are at most one edit apart (insertion, deletion, substitution or adjacent swap). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const restA = a.slice(start, endA);
  const restB = b.slice(start, endB);
  if (restA.length <= 1 && restB.length <= 1) return true;
  return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0];
}

/** Length, in characters, of the pieces of a name that its literal substring search looks up. */
export const NAME_GRAM = 3;

/**
 * The distinct trigrams (three characters, by code point) of a text in lower case. A substring of three characters
 * or more of the lower-case name has only trigrams of that name, so an index look-up of all of a search term's
 * trigrams finds every name containing it (and perhaps a few with the trigrams elsewhere, which the caller drops).
 */
export function nameGramsOf(text: string): string[] {
  const chars = [...text.toLowerCase()];
  const grams = new Set<string>();
  for (let at = 0; at + NAME_GRAM <= chars.length; at++) grams.add(chars.slice(at, at + NAME_GRAM).join(''));
  return [...grams];
}

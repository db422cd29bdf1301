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
 * The search keys of an entry (`searchKeys`), each one string that a query word looks up as an index point, so that a
 * search reads its matches through one index in the page's order (see `searchKeysFor`):
 * - `p:<prefix>` for every beginning of every word of the names and descriptions (the word itself included);
 * - for each word of a name, `w:<word>`, and for those of `TYPO_MIN_LENGTH` letters or more, `d:<the word with one
 *   letter removed>` and `s:<position>:<the word with the letter at that position removed>`.
 */
export function searchKeysOf(nameWords: string[], terms: string[]): string[] {
  const keys = new Set<string>();
  for (const term of terms) for (let end = 1; end <= term.length; end++) keys.add(`p:${term.slice(0, end)}`);
  for (const word of nameWords) {
    keys.add(`w:${word}`);
    if (word.length < TYPO_MIN_LENGTH) continue;
    deletions(word).forEach((shorter, at) => keys.add(`d:${shorter}`).add(`s:${at}:${shorter}`));
  }
  return [...keys];
}

/**
 * The keys an entry has exactly when a query word begins one of its words, or (for words of `TYPO_MIN_LENGTH`
 * letters or more) is within one edit of a word of its names of that length or more: the word begins a word
 * (`p:`); a letter missing (it is a name's word with one letter removed: `d:`); a letter extra (a deletion of it is
 * a name's word: `w:`, for words one letter longer than the minimum or more); a letter wrong (both without the
 * letter at the same position: `s:`); two neighbours swapped (its swap is a name's word: `w:`).
 */
export function searchKeysFor(word: string): string[] {
  const cut = word.slice(0, MAX_WORD);
  const keys = new Set([`p:${cut}`]);
  if (cut.length < TYPO_MIN_LENGTH) return [...keys];
  keys.add(`d:${cut}`);
  deletions(cut).forEach((shorter, at) => {
    keys.add(`s:${at}:${shorter}`);
    if (shorter.length >= TYPO_MIN_LENGTH) keys.add(`w:${shorter}`);
  });
  for (let at = 0; at + 1 < cut.length; at++) {
    if (cut[at] !== cut[at + 1]) keys.add(`w:${cut.slice(0, at)}${cut[at + 1]}${cut[at]}${cut.slice(at + 2)}`);
  }
  return [...keys];
}

/** The word with each letter removed in turn (index = the position removed). */
function deletions(word: string): string[] {
  return Array.from({ length: word.length }, (_, at) => word.slice(0, at) + word.slice(at + 1));
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

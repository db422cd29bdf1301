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
 * - `n:<prefix>` for every beginning of every word of the names (the word itself included), and `p:<prefix>` for
 *   every other beginning of a word of the descriptions (one that no name's word begins with);
 * - for each word of a name, `w:<word>`, and for those of `TYPO_MIN_LENGTH` letters or more,
 *   `s:<position>:<the word with the letter at that position removed>`.
 * Every key is repeated in each `search_*` index of each listed entry (all currencies and per currency), so the set
 * is kept to what exactness needs. Until issue 23's slimming an entry also kept `d:<the word less a letter>` for
 * each position (a query word with a letter missing looked up `d:<word>`); the `s:` keys hold the same strings with
 * their position, so such a query word now looks up `s:<i>:<word>` for each position `i` of it (a letter missing at
 * the end leaves a beginning, `n:`): n - 1 more points per query word of n letters instead of n keys per name word
 * of n letters kept (18% of the demo's search keys). Entries written with `d:` keys answer every query alike: their
 * `s:` keys are the same, and nothing looks up the `d:` ones.
 */
export function searchKeysOf(nameWords: string[], terms: string[]): string[] {
  const keys = new Set<string>();
  const namePrefixes = new Set(nameWords.flatMap(prefixesOf));
  for (const prefix of namePrefixes) keys.add(`n:${prefix}`);
  for (const term of terms)
    for (const prefix of prefixesOf(term)) if (!namePrefixes.has(prefix)) keys.add(`p:${prefix}`);
  for (const word of nameWords) {
    keys.add(`w:${word}`);
    if (word.length < TYPO_MIN_LENGTH) continue;
    deletions(word).forEach((shorter, at) => keys.add(`s:${at}:${shorter}`));
  }
  return [...keys];
}

/**
 * The keys an entry has exactly when a query word begins one of its words, or (for words of `TYPO_MIN_LENGTH`
 * letters or more) is within one edit of a word of its names of that length or more: the word begins a word of a
 * name (`n:`) or of a description (`p:`); a letter missing (it is a name's word with the letter at some position
 * removed: `s:<position>:<word>`, for each position of the word; one missing at the end leaves a beginning of the
 * name's word, `n:`); a letter extra (a deletion of it is a name's
 * word: `w:`, for words one letter longer than the minimum or more); a letter wrong (both without the letter at the
 * same position: `s:`, whose removed strings are a letter shorter than the missing letter's); two neighbours swapped
 * (its swap is a name's word: `w:`).
 */
export function searchKeysFor(word: string): string[] {
  return relevanceTiers(word).at(-1)!.keys;
}

/** The keys of a query word that an entry has when the word begins one of its words (names and descriptions). */
export function prefixKeysFor(word: string): string[] {
  const cut = word.slice(0, MAX_WORD);
  return [`n:${cut}`, `p:${cut}`];
}

/** A query word's matches of at least a relevance: the entries having one of `keys`. */
export interface RelevanceTier {
  score: number;
  keys: string[];
}

/**
 * The matches of a query word by the relevance it scores them (the listing's `relevance`), best first, each set
 * holding the ones before it: a word of a name (8: `w:<word>`), or the beginning of one (4: `n:<word>`), or, for words
 * of `TYPO_MIN_LENGTH` letters or more, a name's word within one typo (2: the typo keys of `searchKeysFor`), or the
 * beginning of any word (1). So the entries scoring exactly a tier's score are those of its keys less those of the
 * tier before, and each set is a point look-up of the search indexes.
 */
export function relevanceTiers(word: string): RelevanceTier[] {
  const cut = word.slice(0, MAX_WORD);
  const [namePrefix, otherPrefix] = prefixKeysFor(cut);
  const typos = cut.length < TYPO_MIN_LENGTH ? [] : typoKeysFor(cut);
  const tiers = [
    { score: 8, keys: [`w:${cut}`] },
    { score: 4, keys: [namePrefix] },
    ...(typos.length > 0 ? [{ score: 2, keys: [namePrefix, ...typos] }] : []),
  ];
  return [...tiers, { score: 1, keys: [namePrefix, otherPrefix, ...typos] }];
}

/** The keys of the names' words within one typo of a word of `TYPO_MIN_LENGTH` letters or more (see above). */
function typoKeysFor(word: string): string[] {
  const keys = new Set<string>();
  for (let at = 0; at < word.length; at++) keys.add(`s:${at}:${word}`);
  deletions(word).forEach((shorter, at) => {
    keys.add(`s:${at}:${shorter}`);
    if (shorter.length >= TYPO_MIN_LENGTH) keys.add(`w:${shorter}`);
  });
  for (let at = 0; at + 1 < word.length; at++) {
    if (word[at] !== word[at + 1]) keys.add(`w:${word.slice(0, at)}${word[at + 1]}${word[at]}${word.slice(at + 2)}`);
  }
  return [...keys];
}

/** Every beginning of a word, the word itself included. */
function prefixesOf(word: string): string[] {
  return Array.from({ length: word.length }, (_, at) => word.slice(0, at + 1));
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

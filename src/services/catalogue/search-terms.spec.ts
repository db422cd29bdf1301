import fc from 'fast-check';
import { relevanceTiers, searchKeysFor, searchKeysOf, TYPO_MIN_LENGTH } from './search-terms';

/** One edit by the definition of the search (missing, extra or wrong letter, two neighbours swapped), by brute force. */
function oneEditAway(a: string, b: string): boolean {
  const letters = new Set([...a, ...b]);
  const edits = new Set<string>();
  for (let at = 0; at <= a.length; at++) {
    if (at < a.length) edits.add(a.slice(0, at) + a.slice(at + 1));
    if (at + 1 < a.length) edits.add(a.slice(0, at) + a[at + 1] + a[at] + a.slice(at + 2));
    for (const letter of letters) {
      edits.add(a.slice(0, at) + letter + a.slice(at));
      if (at < a.length) edits.add(a.slice(0, at) + letter + a.slice(at + 1));
    }
  }
  return a === b || edits.has(b);
}

/** What a query word matches, as the README says: a word it begins, or a name's word within one typo. */
function matches(word: string, names: string[], terms: string[]): boolean {
  if (terms.some((term) => term.startsWith(word))) return true;
  const typos = (name: string) => name.length >= TYPO_MIN_LENGTH && oneEditAway(word, name);
  return word.length >= TYPO_MIN_LENGTH && names.some(typos);
}

/** The README's relevance of an entry to one query word. */
function score(word: string, names: string[], terms: string[]): number {
  if (names.includes(word)) return 8;
  if (names.some((name) => name.startsWith(word))) return 4;
  const typos = (name: string) => name.length >= TYPO_MIN_LENGTH && oneEditAway(word, name);
  if (word.length >= TYPO_MIN_LENGTH && names.some(typos)) return 2;
  return terms.some((term) => term.startsWith(word)) ? 1 : 0;
}

const hasCommonKey = (a: string[], b: string[]) => a.some((key) => new Set(b).has(key));

describe('search keys', () => {
  // A three-letter alphabet makes near words (and their keys) collide often.
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 8 });

  it('are shared by an entry and a query word exactly when the word matches the entry', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), fc.array(word, { maxLength: 3 }), word, (n, d, q) => {
        const names = [...new Set(n)];
        const terms = [...new Set([...names, ...d])];
        expect(hasCommonKey(searchKeysOf(names, terms), searchKeysFor(q))).toBe(matches(q, names, terms));
      }),
      { seed: 20261127, numRuns: 5_000 },
    );
  });

  it('of each relevance tier are shared exactly by the entries scoring at least its relevance', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), fc.array(word, { maxLength: 3 }), word, (n, d, q) => {
        const names = [...new Set(n)];
        const terms = [...new Set([...names, ...d])];
        const keys = searchKeysOf(names, terms);
        const tiers = relevanceTiers(q);
        expect(tiers.map((tier) => tier.score)).toEqual(q.length >= TYPO_MIN_LENGTH ? [8, 4, 2, 1] : [8, 4, 1]);
        for (const tier of tiers) {
          expect(hasCommonKey(keys, tier.keys)).toBe(score(q, names, terms) >= tier.score);
        }
      }),
      { seed: 20261128, numRuns: 5_000 },
    );
  });

  it('find the one-typo words of the README and not two edits or short words', () => {
    const keysOf = (name: string) => searchKeysOf([name], [name]);
    for (const typo of ['monsterra', 'monstrea', 'mnstera', 'monstara', 'monst']) {
      expect(hasCommonKey(keysOf('monstera'), searchKeysFor(typo))).toBe(true);
    }
    for (const far of ['monstrrea', 'mosntrea', 'onstrea']) {
      expect(hasCommonKey(keysOf('monstera'), searchKeysFor(far))).toBe(false);
    }
    expect(hasCommonKey(keysOf('ficus'), searchKeysFor('fucs'))).toBe(false);
  });
});

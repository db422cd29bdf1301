import { calculateObjectSize } from 'bson';
import { MongoError } from '../errors';
import type { IndexSpec } from '../indexes/index-spec';
import { partialFilter } from '../indexes/partial-filter';
import { isDoc, type Doc } from '../types';
import { findLanguage, tokenize, type Language } from './analyzer';
import { WILDCARD } from './text-spec';

/** One indexed string of a document, with the weight of its field and the language it is analysed in. */
export interface IndexedText {
  text: string;
  weight: number;
  language: Language;
}

/**
 * The score of each term of one string, as MongoDB's text index version 3 computes it: repeated
 * occurrences count 1, 1/2, 1/4..., scaled by the term's share of the string's tokens (0.5 to 1) and
 * by the field's weight; a string that is exactly the term gets a 10% boost.
 */
function scoreString(indexed: IndexedText, scores: Map<string, number>): void {
  const counts = new Map<string, { count: number; freq: number }>();
  const tokens = tokenize(indexed.text, indexed.language);
  for (const term of tokens) {
    const data = counts.get(term) ?? { count: 0, freq: 0 };
    data.freq += 1 / 2 ** data.count;
    data.count += 1;
    counts.set(term, data);
  }
  for (const [term, { count, freq }] of counts) {
    const coeff = (0.5 * count) / tokens.length + 0.5;
    const exact = indexed.text.length === term.length && indexed.text.toLowerCase() === term ? 1.1 : 1;
    scores.set(term, (scores.get(term) ?? 0) + indexed.weight * freq * coeff * exact);
  }
}

/**
 * A text index: an inverted index from each term to the documents holding it with their score.
 * Rebuilt from the documents when the store opens, like every index, so only the spec is persisted.
 */
export class TextIndex {
  readonly fields: string[];
  private readonly postings = new Map<string, Map<string, number>>();
  private readonly termsById = new Map<string, string[]>();
  private readonly weights: Map<string, number>;
  private readonly wildcard: boolean;
  readonly defaultLanguage: Language;

  private readonly holds: (doc: Doc) => boolean;

  constructor(readonly spec: IndexSpec) {
    this.holds = partialFilter(spec);
    this.fields = Object.keys(spec.key);
    const weights = Object.entries(spec.weights as Doc) as Array<[string, number]>;
    this.wildcard = weights.some(([field]) => field === WILDCARD);
    this.weights = new Map(weights.filter(([field]) => field !== WILDCARD));
    this.defaultLanguage = findLanguage(spec.default_language) as Language;
  }

  get name(): string {
    return this.spec.name;
  }

  /** Plain key fields before the text part: `$text` queries must give each an equality. */
  get prefixFields(): string[] {
    return this.fields.slice(0, this.fields.indexOf('_fts'));
  }

  covers(doc: Doc): boolean {
    return this.textsOf(doc).length > 0;
  }

  /** Validates the document's language overrides before any index changes (MongoDB's 17261/17262). */
  checkUnique(doc: Doc): void {
    this.textsOf(doc);
  }

  build(docs: Iterable<[string, Doc]>): void {
    const pairs = [...docs];
    for (const [, doc] of pairs) this.checkUnique(doc);
    for (const [id, doc] of pairs) this.add(doc, id);
  }

  add(doc: Doc, id: string): void {
    const scores = new Map<string, number>();
    for (const indexed of this.textsOf(doc)) scoreString(indexed, scores);
    if (scores.size === 0) return;
    for (const [term, score] of scores) {
      const holders = this.postings.get(term) ?? new Map<string, number>();
      holders.set(id, score);
      this.postings.set(term, holders);
    }
    this.termsById.set(id, [...scores.keys()]);
  }

  /**
   * Bytes the index takes, measured as MongoDB's text keys: per (term, document) posting, the BSON size of
   * `{_fts: term, _ftsx: score}` plus 8 bytes of record id (plain prefix fields of a compound index not counted).
   */
  sizeBytes(): number {
    let bytes = 0;
    for (const [term, holders] of this.postings) {
      bytes += (calculateObjectSize({ _fts: term, _ftsx: 0.5 }) + 8) * holders.size;
    }
    return bytes;
  }

  remove(_doc: Doc, id: string): void {
    for (const term of this.termsById.get(id) ?? []) {
      const holders = this.postings.get(term);
      holders?.delete(id);
      if (holders?.size === 0) this.postings.delete(term);
    }
    this.termsById.delete(id);
  }

  /** Re-indexes a replaced document; a no-op when its indexed strings did not change (the common update). */
  replace(current: Doc, next: Doc, id: string): void {
    const fingerprint = (doc: Doc): string =>
      JSON.stringify(this.textsOf(doc).map(({ text, weight, language }) => [text, weight, language.name]));
    if (fingerprint(current) === fingerprint(next)) return;
    this.remove(current, id);
    this.add(next, id);
  }

  /** Ids of the documents holding any of the terms, with the sum of their scores for those terms. */
  scores(terms: Iterable<string>): Map<string, number> {
    const total = new Map<string, number>();
    for (const term of terms) {
      for (const [id, score] of this.postings.get(term) ?? []) total.set(id, (total.get(id) ?? 0) + score);
    }
    return total;
  }

  /**
   * The document's indexed strings: the weighted fields (every string field with `$**`), arrays included;
   * none for a document outside a partial index's filter.
   */
  textsOf(doc: Doc): IndexedText[] {
    const texts: IndexedText[] = [];
    if (!this.holds(doc)) return texts;
    this.collect(doc, '', this.languageOf(doc, this.defaultLanguage), texts);
    return texts;
  }

  private collect(value: unknown, path: string, language: Language, texts: IndexedText[]): void {
    if (typeof value === 'string') {
      const weight = this.weights.get(path) ?? (this.wildcard ? 1 : undefined);
      if (weight !== undefined) texts.push({ text: value, weight, language });
    } else if (Array.isArray(value)) {
      for (const element of value) this.collect(element, path, language, texts);
    } else if (isDoc(value)) {
      const own = path === '' ? language : this.languageOf(value, language);
      for (const [field, child] of Object.entries(value)) {
        const childPath = path === '' ? field : `${path}.${field}`;
        if (this.wildcard || this.reaches(childPath)) this.collect(child, childPath, own, texts);
      }
    }
  }

  private reaches(path: string): boolean {
    for (const field of this.weights.keys()) if (field === path || field.startsWith(`${path}.`)) return true;
    return false;
  }

  /** A (sub)document's language: its `language_override` field, else the enclosing one. */
  private languageOf(doc: Doc, inherited: Language): Language {
    const override = doc[this.spec.language_override as string];
    if (override === undefined) return inherited;
    if (typeof override !== 'string') {
      throw new MongoError('BadValue', 'found language override field in document with non-string type');
    }
    const language = findLanguage(override);
    if (!language) throw new MongoError('Location17262', `language override unsupported: ${override}`);
    return language;
  }
}

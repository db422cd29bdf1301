import { Query } from 'mingo/query';
import { compare } from 'mingo/util';
import { effectiveFilter, mingoOptions } from '../query/mingo-options';
import type { Doc } from '../types';
import { duplicateKeyError } from './duplicate-key';
import { extractKeys, hasNoIndexedField } from './key-extractor';
import { keyString } from './key-string';
import type { IndexSpec } from './index-spec';

interface Entry {
  key: unknown[];
  id: string;
}

export interface Bound {
  value: unknown;
  inclusive: boolean;
}

/** Missing fields are indexed as null, like MongoDB. */
const normalize = (key: unknown[]): unknown[] => key.map((value) => (value === undefined ? null : value));

/**
 * In-memory index: a hash of full keys (uniqueness, equality) plus an array of entries kept sorted
 * by the first key field (range scans). Both are rebuilt from the documents when the store opens, so
 * only the spec is persisted.
 */
export class Index {
  readonly fields: string[];
  private readonly byKey = new Map<string, Set<string>>();
  private readonly sorted: Entry[] = [];
  private readonly partial?: Query;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    if (spec.partialFilterExpression) this.partial = new Query(effectiveFilter(spec.partialFilterExpression, {}), mingoOptions());
  }

  get name(): string {
    return this.spec.name;
  }

  /** Whether the document has entries in this index (sparse and partial indexes skip some). */
  covers(doc: Doc): boolean {
    if (this.spec.sparse && hasNoIndexedField(doc, this.fields)) return false;
    return !this.partial || this.partial.test(doc);
  }

  private keysOf(doc: Doc): unknown[][] {
    return this.covers(doc) ? extractKeys(doc, this.fields).map(normalize) : [];
  }

  /** Throws DuplicateKey if the document would collide with another document in a unique index. */
  checkUnique(doc: Doc, id: string, ns: string): void {
    if (!this.spec.unique && this.name !== '_id_') return;
    for (const key of this.keysOf(doc)) {
      const holders = this.byKey.get(keyString(key));
      if (holders && [...holders].some((holder) => holder !== id)) {
        throw duplicateKeyError(ns, this.spec, key);
      }
    }
  }

  add(doc: Doc, id: string): void {
    for (const entry of this.hashEntries(doc, id)) this.sorted.splice(this.position(entry), 0, entry);
  }

  /**
   * Indexes many documents at once (index creation, opening a store): one sort instead of a sorted
   * insertion per entry. Throws DuplicateKey on the first collision; the index is then discarded.
   */
  build(docs: Iterable<[string, Doc]>, ns: string): void {
    for (const [id, doc] of docs) {
      this.checkUnique(doc, id, ns);
      this.sorted.push(...this.hashEntries(doc, id));
    }
    this.sorted.sort((a, b) => this.compareEntries(a, b));
  }

  /** Records the document's keys in the hash and returns the entries that are new. */
  private hashEntries(doc: Doc, id: string): Entry[] {
    const entries: Entry[] = [];
    for (const key of this.keysOf(doc)) {
      const hash = keyString(key);
      const holders = this.byKey.get(hash) ?? new Set<string>();
      if (holders.has(id)) continue;
      holders.add(id);
      this.byKey.set(hash, holders);
      entries.push({ key, id });
    }
    return entries;
  }

  /** Re-indexes a replaced document; a no-op when its keys did not change (the common update). */
  replace(current: Doc, next: Doc, id: string): void {
    const before = this.keysOf(current).map(keyString);
    const after = this.keysOf(next).map(keyString);
    if (before.length === after.length && before.every((key, i) => key === after[i])) return;
    this.remove(current, id);
    this.add(next, id);
  }

  remove(doc: Doc, id: string): void {
    for (const key of this.keysOf(doc)) {
      const hash = keyString(key);
      const holders = this.byKey.get(hash);
      if (!holders?.delete(id)) continue;
      if (holders.size === 0) this.byKey.delete(hash);
      const at = this.position({ key, id });
      if (this.sorted[at]?.id === id) this.sorted.splice(at, 1);
    }
  }

  /** Ids whose first key field lies within the bounds, in index order, without duplicates. */
  scan(lower: Bound, upper: Bound): string[] {
    const ids = new Set<string>();
    let at = this.lowerBound(lower.value);
    for (; at < this.sorted.length; at++) {
      const { key, id } = this.sorted[at];
      if (!lower.inclusive && compare(key[0], lower.value) === 0) continue;
      const cmp = compare(key[0], upper.value);
      if (cmp > 0 || (cmp === 0 && !upper.inclusive)) break;
      ids.add(id);
    }
    return [...ids];
  }

  /** Ids holding exactly this full key (all fields). */
  lookup(key: unknown[]): string[] {
    return [...(this.byKey.get(keyString(normalize(key))) ?? [])];
  }

  private compareEntries(a: Entry, b: Entry): number {
    for (let i = 0; i < a.key.length; i++) {
      const cmp = compare(a.key[i], b.key[i]);
      if (cmp !== 0) return cmp;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  }

  private position(entry: Entry): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compareEntries(this.sorted[mid], entry) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private lowerBound(value: unknown): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(this.sorted[mid].key[0], value) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

import { Query } from 'mingo/query';
import BTree from 'sorted-btree';
import { compare } from 'mingo/util';
import { collationKey } from '../query/collation';
import { effectiveFilter, mingoOptions, toCollation } from '../query/mingo-options';
import type { Doc } from '../types';
import { duplicateKeyError } from './duplicate-key';
import { extractKeys, hasNoIndexedField } from './key-extractor';
import { keyString } from './key-string';
import type { IndexSpec } from './index-spec';

interface Entry {
  key: unknown[];
  id: string;
}

/**
 * Entries order by key (MongoDB order, field by field), a key prefix before its extensions (so
 * `{key: [v], id: ''}` is the first entry whose leading field is v), then by document id.
 */
function compareEntries(a: Entry, b: Entry): number {
  const length = Math.min(a.key.length, b.key.length);
  for (let i = 0; i < length; i++) {
    const cmp = compare(a.key[i], b.key[i]);
    if (cmp !== 0) return cmp;
  }
  if (a.key.length !== b.key.length) return a.key.length - b.key.length;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface Bound {
  value: unknown;
  inclusive: boolean;
}

/** Missing fields are indexed as null, like MongoDB. */
const normalize = (key: unknown[]): unknown[] => key.map((value) => (value === undefined ? null : value));

/**
 * In-memory index: a hash of full keys (uniqueness, equality) plus a B+ tree of entries in key order
 * (range scans, O(log n) updates). Both are rebuilt from the documents when the store opens, so only
 * the spec is persisted.
 */
export class Index {
  readonly fields: string[];
  private readonly byKey = new Map<string, Set<string>>();
  private readonly sorted = new BTree<Entry, undefined>(undefined, compareEntries);
  private readonly partial?: Query;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    if (spec.partialFilterExpression) this.partial = new Query(effectiveFilter(spec.partialFilterExpression, {}), mingoOptions());
  }

  /** Hash of a key: strings equal under the index's collation share it (uniqueness, lookups). */
  private hashOf(key: unknown[]): string {
    const collation = this.spec.collation as Doc | undefined;
    if (!toCollation(collation)) return keyString(key);
    return keyString(key.map((value) => (typeof value === 'string' ? collationKey(value, collation as Doc) : value)));
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

  /**
   * Throws DuplicateKey if the document would collide with another document in a unique index, or
   * in a `prepareUnique` one (which refuses new duplicates but keeps existing ones) unless `existing`.
   */
  checkUnique(doc: Doc, id: string, ns: string, existing = false): void {
    const enforced = this.spec.unique || this.name === '_id_' || (this.spec.prepareUnique && !existing);
    if (!enforced) return;
    for (const key of this.keysOf(doc)) {
      const holders = this.byKey.get(this.hashOf(key));
      if (holders && [...holders].some((holder) => holder !== id)) {
        throw duplicateKeyError(ns, this.spec, key);
      }
    }
  }

  add(doc: Doc, id: string): void {
    for (const entry of this.hashEntries(doc, id)) this.sorted.set(entry, undefined);
  }

  /** Indexes many documents at once (index creation, opening a store); throws DuplicateKey on a collision. */
  build(docs: Iterable<[string, Doc]>, ns: string): void {
    const pairs: Array<[Entry, undefined]> = [];
    for (const [id, doc] of docs) {
      this.checkUnique(doc, id, ns, true);
      for (const entry of this.hashEntries(doc, id)) pairs.push([entry, undefined]);
    }
    this.sorted.setPairs(pairs);
  }

  /** Records the document's keys in the hash and returns the entries that are new. */
  private hashEntries(doc: Doc, id: string): Entry[] {
    const entries: Entry[] = [];
    for (const key of this.keysOf(doc)) {
      const hash = this.hashOf(key);
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
    const before = this.keysOf(current).map((key) => this.hashOf(key));
    const after = this.keysOf(next).map((key) => this.hashOf(key));
    if (before.length === after.length && before.every((key, i) => key === after[i])) return;
    this.remove(current, id);
    this.add(next, id);
  }

  remove(doc: Doc, id: string): void {
    for (const key of this.keysOf(doc)) {
      const hash = this.hashOf(key);
      const holders = this.byKey.get(hash);
      if (!holders?.delete(id)) continue;
      if (holders.size === 0) this.byKey.delete(hash);
      this.sorted.delete({ key, id });
    }
  }

  /** Ids whose first key field lies within the bounds, in index order, without duplicates. */
  scan(lower: Bound, upper: Bound): string[] {
    const ids = new Set<string>();
    for (const { key, id } of this.sorted.keys({ key: [lower.value], id: '' })) {
      if (!lower.inclusive && compare(key[0], lower.value) === 0) continue;
      const cmp = compare(key[0], upper.value);
      if (cmp > 0 || (cmp === 0 && !upper.inclusive)) break;
      ids.add(id);
    }
    return [...ids];
  }

  /** Groups of ids sharing a key: what keeps the index from becoming unique. */
  duplicates(): string[][] {
    return [...this.byKey.values()].filter((holders) => holders.size > 1).map((holders) => [...holders]);
  }

  /** Ids holding exactly this full key (all fields). */
  lookup(key: unknown[]): string[] {
    return [...(this.byKey.get(this.hashOf(normalize(key))) ?? [])];
  }
}

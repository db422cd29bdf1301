import { calculateObjectSize } from 'bson';
import { Query } from 'mingo/query';
import { collationKey } from '../query/collation';
import { effectiveFilter, mingoOptions, toCollation } from '../query/mingo-options';
import type { Doc } from '../types';
import { duplicateKeyError } from './duplicate-key';
import { compareKeys, compareValues, MAX_KEY, MIN_KEY, pointInterval, type Interval } from './interval';
import { SortedEntries, type Entry } from './sorted-entries';
import { extractKeys, hasNoIndexedField, touchesArray } from './key-extractor';
import { keyString } from './key-string';
import { keyFieldsUnchanged, topLevelFields } from './unchanged-fields';
import type { IndexSpec } from './index-spec';

export type { Entry } from './sorted-entries';

export interface Bound {
  value: unknown;
  inclusive: boolean;
}

/** A contiguous stretch of index entries: equal values on the leading fields, then an interval on the next one. */
export interface KeyRange {
  prefix: unknown[];
  interval: Interval;
}

/** Missing fields are indexed as null, like MongoDB. */
const normalize = (key: unknown[]): unknown[] => key.map((value) => (value === undefined ? null : value));

/** Removes a document's id from the holders of a key hash, and the hash once it holds none. */
function unhash(byKey: Map<string, Set<string>>, hash: string, id: string): void {
  const holders = byKey.get(hash);
  if (holders?.delete(id) && holders.size === 0) byKey.delete(hash);
}

/**
 * In-memory index: its entries in key order (`SortedEntries`: range scans, full-key look-ups, O(log n) searches),
 * plus a hash of full keys where equality must follow the key's hash: uniqueness and collations (see
 * `byKey`). Both are rebuilt from the documents when the store opens, so only the spec is persisted.
 */
export class Index {
  readonly fields: string[];
  /** 1 (ascending) or -1 (descending) per key field. */
  readonly directions: number[];
  /** The top-level fields the key paths start at: a replace leaving them equal leaves the keys alone. */
  private readonly topFields: string[];
  /**
   * Ids by hash of their full key, only for the indexes that need it: unique ones (`_id_`, `unique`,
   * `prepareUnique`; built on the first check when collMod turns the option on) and collated ones (strings
   * equal under the collation share a hash but not a place in the tree). Others answer from the tree: the
   * hash's key string and one-element Set took about two thirds of a key's heap (bench README, 1000×).
   */
  private byKey?: Map<string, Set<string>>;
  private readonly sorted: SortedEntries;
  private readonly partial?: Query;
  /** Per key field, how many indexed documents hold an array on its path (the field is multikey while > 0). */
  private readonly arrayHolders: number[];
  /** Per key field, how many entries have an array as key value (arrays nested in arrays). */
  private readonly arrayKeys: number[];
  /** Bumped on every entry change, so a suspended scan knows to re-seek. */
  private version = 0;
  /**
   * Bumped whenever a key field starts or stops holding arrays (`fieldIsMultiKey`) or array keys (`holdsArrayKeys`):
   * a query's bounds on the index and their exactness depend on those, so bounds kept for repeated values (the plan
   * cache's) hold while this does not change.
   */
  arrayState = 0;
  /** Documents added, replaced or removed since the index was built (the plan cache flushes after many). */
  writes = 0;
  /** The last size measured, valid while the entries have not changed since. */
  private measured?: { version: number; bytes: number };
  /** Query plans that read this index since `since` ($indexStats `accesses`). */
  accesses = 0;
  readonly since = new Date();

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.topFields = topLevelFields(this.fields);
    this.directions = Object.values(spec.key).map((direction) => (Number(direction) < 0 ? -1 : 1));
    this.sorted = new SortedEntries(this.directions);
    this.arrayHolders = this.fields.map(() => 0);
    this.arrayKeys = this.fields.map(() => 0);
    if (spec.partialFilterExpression) {
      this.partial = new Query(effectiveFilter(spec.partialFilterExpression, {}), mingoOptions());
    }
    if (this.enforcesUnique(false) || toCollation(spec.collation as Doc | undefined)) this.byKey = new Map();
  }

  /** Whether the index refuses duplicate keys: `prepareUnique` refuses new ones but keeps `existing` ones. */
  private enforcesUnique(existing: boolean): boolean {
    return !!this.spec.unique || this.name === '_id_' || (!!this.spec.prepareUnique && !existing);
  }

  /** The hash of full keys, built from the tree when first needed after the index was created without it. */
  private keyHash(): Map<string, Set<string>> {
    if (this.byKey) return this.byKey;
    const byKey = new Map<string, Set<string>>();
    for (const { key, id } of this.sorted.all()) {
      const hash = this.hashOf(key);
      byKey.set(hash, (byKey.get(hash) ?? new Set<string>()).add(id));
    }
    this.byKey = byKey;
    return byKey;
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
    if (!this.enforcesUnique(existing)) return;
    const byKey = this.keyHash();
    for (const key of this.keysOf(doc)) {
      const holders = byKey.get(this.hashOf(key));
      if (holders && [...holders].some((holder) => holder !== id)) {
        throw duplicateKeyError(ns, this.spec, key);
      }
    }
  }

  add(doc: Doc, id: string): void {
    for (const key of this.keysOf(doc)) this.addEntry(key, id);
    this.countArrays(doc, 1);
    this.version++;
    this.writes++;
  }

  /** Whether a key field holds arrays in some indexed document (its entries then repeat documents). */
  get multiKey(): boolean {
    return this.arrayHolders.some((count) => count > 0);
  }

  private countArrayKeys(key: unknown[], delta: number): void {
    key.forEach((value, i) => {
      if (Array.isArray(value)) this.arrayKeys[i] = this.counted(this.arrayKeys[i], delta);
    });
  }

  /** `count + delta`, bumping `arrayState` when the count starts or stops being 0. */
  private counted(count: number, delta: number): number {
    const next = count + delta;
    if (next > 0 !== count > 0) this.arrayState++;
    return next;
  }

  /** Whether some entry has an array as this field's key value (an array nested in an array). */
  holdsArrayKeys(field: number): boolean {
    return this.arrayKeys[field] > 0;
  }

  fieldIsMultiKey(field: number): boolean {
    return this.arrayHolders[field] > 0;
  }

  /** The key fields holding arrays, as explain's `multiKeyPaths` lists them. */
  multiKeyPaths(): Doc {
    return Object.fromEntries(this.fields.map((field, i) => [field, this.arrayHolders[i] > 0 ? [field] : []]));
  }

  private countArrays(doc: Doc, delta: number): void {
    if (!this.covers(doc)) return;
    this.fields.forEach((field, i) => {
      if (touchesArray(doc, field)) this.arrayHolders[i] = this.counted(this.arrayHolders[i], delta);
    });
  }

  /**
   * Fills the new index with many documents at once (index creation, opening a store); throws DuplicateKey on a
   * collision. Every entry is sorted once and the tree loaded from them in order: inserting them one by one searched
   * the tree for each, most of the time it took to open a large store (bench/README.md, `bulkbuild`).
   */
  build(docs: Iterable<[string, Doc]>, ns: string): void {
    const entries: Entry[] = [];
    for (const [id, doc] of docs) {
      this.checkUnique(doc, id, ns, true);
      for (const key of this.keysOf(doc)) if (this.hashEntry(key, id)) entries.push({ key, id });
      this.countArrays(doc, 1);
    }
    this.loadSorted(entries);
    this.version++;
  }

  /** The empty index loaded with `entries` (in any order; an array's repeated values repeated). */
  private loadSorted(entries: Entry[]): void {
    const { compare } = this.sorted;
    entries.sort(compare);
    const distinct = entries.filter((entry, i) => i === 0 || compare(entries[i - 1], entry) !== 0);
    for (const { key } of distinct) this.countArrayKeys(key, 1);
    this.sorted.load(distinct);
  }

  /** Records a key of a document in the key hash, where the index keeps one: false if the document had it already. */
  private hashEntry(key: unknown[], id: string): boolean {
    if (!this.byKey) return true;
    const hash = this.hashOf(key);
    const holders = this.byKey.get(hash) ?? new Set<string>();
    if (holders.has(id)) return false;
    this.byKey.set(hash, holders.add(id));
    return true;
  }

  /**
   * Adds one key of a document unless the document already holds an equal one (an array repeating a value):
   * equal by hash where the index keeps one, else by the tree's order.
   */
  private addEntry(key: unknown[], id: string): void {
    if (!this.hashEntry(key, id)) return;
    if (this.sorted.insert(key, id)) this.countArrayKeys(key, 1);
  }

  /** Re-indexes a replaced document; a no-op when its keys did not change (the common update). */
  replace(current: Doc, next: Doc, id: string): void {
    this.writes++;
    // A partial index's coverage may hang on fields outside its key; otherwise equal key fields mean equal keys.
    if (!this.partial && keyFieldsUnchanged(current, next, this.topFields)) return;
    const before = this.keysOf(current).map((key) => this.hashOf(key));
    const after = this.keysOf(next).map((key) => this.hashOf(key));
    if (before.length === after.length && before.every((key, i) => key === after[i])) {
      this.countArrays(current, -1);
      this.countArrays(next, 1);
      return;
    }
    this.remove(current, id);
    this.add(next, id);
  }

  remove(doc: Doc, id: string): void {
    for (const key of this.keysOf(doc)) {
      if (this.byKey) unhash(this.byKey, this.hashOf(key), id);
      if (this.sorted.delete({ key, id })) this.countArrayKeys(key, -1);
    }
    this.countArrays(doc, -1);
    this.version++;
    this.writes++;
  }

  /** Ids whose first key field lies within the bounds, in index order, without duplicates. */
  scan(lower: Bound, upper: Bound): string[] {
    const { value: low, inclusive: lowInclusive } = lower;
    const { value: high, inclusive: highInclusive } = upper;
    return this.idsIn({ prefix: [], interval: { low, high, lowInclusive, highInclusive } });
  }

  /** Ids whose first key field equals the value (any type, null for missing), in index order. */
  lookupLeading(value: unknown): string[] {
    return this.idsIn({ prefix: [], interval: pointInterval(value ?? null) });
  }

  private idsIn(range: KeyRange): string[] {
    const ids = new Set<string>();
    for (const { id } of this.entriesIn(range, true)) ids.add(id);
    return [...ids];
  }

  /**
   * The entries of a key range in traversal order (forward = the index's own order). The scan can be
   * suspended between entries (lazy cursors): if the index changed meanwhile, it re-seeks after the last
   * entry it returned, so an entry is never returned twice.
   */
  *entriesIn(range: KeyRange, forward: boolean): Generator<Entry> {
    const { first, last, ascending } = this.traversalBounds(range, forward);
    let version = this.version;
    let entries = this.walk(this.startProbe(range.prefix, first, forward), forward);
    let previous: Entry | undefined;
    for (;;) {
      if (previous && version !== this.version) {
        entries = this.walkAfter(previous, forward);
        version = this.version;
      }
      const next = entries.next();
      if (next.done || !this.within(next.value.key, range.prefix, last, ascending)) return;
      previous = next.value;
      yield previous;
    }
  }

  /**
   * How many entries a key range holds, counted by the blocks' lengths (no entry copied or handed out one by one, as
   * `entriesIn` does for a scan); `each` is given every entry's id when the caller needs them (distinct documents
   * of a multikey index). A count command over exact bounds reads nothing else (`IndexScan.countAll`).
   */
  countIn(range: KeyRange, each?: (id: string) => void): number {
    const { first, last } = this.traversalBounds(range, true);
    return this.sorted.countBetween(
      this.startProbe(range.prefix, first, true),
      this.startProbe(range.prefix, last, false),
      each,
    );
  }

  /** A range's bounds in traversal order (where a walk starts, where it stops) and whether it walks its field upward. */
  private traversalBounds(range: KeyRange, forward: boolean): { first: Bound; last: Bound; ascending: boolean } {
    const { low, high, lowInclusive, highInclusive } = range.interval;
    const lowBound = { value: low, inclusive: lowInclusive };
    const highBound = { value: high, inclusive: highInclusive };
    const ascending = this.directions[range.prefix.length] > 0 === forward;
    return ascending
      ? { first: lowBound, last: highBound, ascending }
      : { first: highBound, last: lowBound, ascending };
  }

  /**
   * A probe sorts before (edge -1) or after (+1) all entries extending its key, so walking from it starts
   * at the range's first entry: before the first bound's keys when inclusive, after them when exclusive.
   */
  private startProbe(prefix: unknown[], first: Bound, forward: boolean): Entry {
    const step = forward ? 1 : -1;
    if (first.value === MIN_KEY || first.value === MAX_KEY) return { key: prefix, id: '', edge: forward ? -1 : 1 };
    return { key: [...prefix, first.value], id: '', edge: ((first.inclusive ? -1 : 1) * step) as -1 | 1 };
  }

  private walk(from: Entry, forward: boolean): Iterator<Entry> {
    return forward ? this.sorted.ascending(from) : this.sorted.descending(from);
  }

  /** Entries strictly after `previous` in traversal order (it may have been removed meanwhile). */
  private walkAfter(previous: Entry, forward: boolean): Iterator<Entry> {
    return forward ? this.sorted.ascending(previous, true) : this.sorted.descending(previous);
  }

  /** Whether a key read in traversal order is still inside the range (same prefix, not past the last bound). */
  private within(key: unknown[], prefix: unknown[], last: Bound, ascending: boolean): boolean {
    for (let i = 0; i < prefix.length; i++) if (compareKeys(key[i], prefix[i]) !== 0) return false;
    if (last.value === MIN_KEY || last.value === MAX_KEY) return true;
    const cmp = compareValues(key[prefix.length], last.value) * (ascending ? 1 : -1);
    return cmp < 0 || (cmp === 0 && last.inclusive);
  }

  /** Number of entries (keys) in the index. */
  get size(): number {
    return this.sorted.size;
  }

  /**
   * Bytes the index takes, measured as the BSON size of each key (a document of the key pattern's fields)
   * plus 8 bytes for its record id.
   */
  sizeBytes(): number {
    if (this.measured?.version === this.version) return this.measured.bytes;
    let bytes = 0;
    for (const { key } of this.sorted.all()) {
      bytes += calculateObjectSize(Object.fromEntries(this.fields.map((field, i) => [field, key[i]]))) + 8;
    }
    this.measured = { version: this.version, bytes };
    return bytes;
  }

  /** Groups of ids sharing a key: what keeps the index from becoming unique. */
  duplicates(): string[][] {
    return [...this.keyHash().values()].filter((holders) => holders.size > 1).map((holders) => [...holders]);
  }

  /** Ids holding exactly this full key (all fields). */
  lookup(key: unknown[]): string[] {
    const full = normalize(key);
    if (this.byKey) return [...(this.byKey.get(this.hashOf(full)) ?? [])];
    return this.idsIn({ prefix: full.slice(0, -1), interval: pointInterval(full.at(-1)) });
  }
}

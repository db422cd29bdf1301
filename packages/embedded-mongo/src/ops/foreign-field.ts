import { compare } from 'mingo/util';
import type { Index } from '../indexes/index';
import type { Collection } from '../storage/collection';
import type { Doc } from '../types';
import { equalityKey, matchedValues } from './field-values';
import type { ReadSource } from './match-options';

/**
 * Equality look-ups on one field of a foreign collection (`$lookup`'s foreignField, `$graphLookup`'s
 * connectToField): the documents matching `{field: {$in: values}}` with MongoDB's query semantics.
 * Stored documents are returned as they are (shared, never copied).
 */
export interface ForeignField {
  find(values: unknown[]): Doc[];
}

/** The keys under which a document matches an equality on the path (a top-level scalar field: one key). */
function keysOf(doc: Doc, path: string[], collation?: Doc): Iterable<string> {
  const top = path.length === 1 ? doc[path[0]] : undefined;
  if (path.length === 1 && !Array.isArray(top)) return [equalityKey(top, collation)];
  return new Set(matchedValues(doc, path).map((value) => equalityKey(value, collation)));
}

/** The distinct values, by equality key. */
function distinct(values: unknown[], collation?: Doc): Map<string, unknown> {
  return new Map(values.map((value) => [equalityKey(value, collation), value]));
}

/**
 * An index serves equality on `field` when it holds every document under its plain values: not
 * sparse, partial, hidden or collated, an ascending or descending key whose first field is `field`.
 */
export function equalityIndex(collection: Collection, field: string): Index | undefined {
  const usable = [...collection.indexes.values()].filter(({ spec, fields }) => {
    const direction = spec.key[fields[0]];
    const plain = (direction === 1 || direction === -1) && !spec.sparse && !spec.partialFilterExpression;
    return fields[0] === field && plain && !spec.hidden && !spec.collation;
  });
  return usable.find((index) => index.fields.length === 1) ?? usable[0];
}

/** Point look-ups through an index, each candidate re-checked against the exact equality. */
class IndexedField implements ForeignField {
  private readonly path: string[];

  constructor(
    private readonly collection: Collection,
    private readonly index: Index,
    field: string,
  ) {
    this.path = field.split('.');
  }

  /** Ids possibly holding the value: its own key, and for an array the key of its first element (or null if empty). */
  private candidateIds(value: unknown): string[] {
    const keys = [value];
    if (Array.isArray(value)) keys.push(value.length ? value[0] : null);
    return keys.flatMap((key) => this.idsWithFirstKey(key));
  }

  private idsWithFirstKey(value: unknown): string[] {
    if (this.index.fields.length === 1) return this.index.lookup([value]);
    const bound = { value: value ?? null, inclusive: true };
    return this.index.scan(bound, bound);
  }

  /** Results in index order: by value (in the index's direction), then as the index holds them. */
  find(values: unknown[]): Doc[] {
    const wanted = distinct(values);
    const direction = Number(this.index.spec.key[this.index.fields[0]]);
    const ordered = [...wanted.values()].sort((a, b) => direction * compare(a, b));
    const seen = new Set<string>();
    const found: Doc[] = [];
    for (const value of ordered) {
      for (const id of this.candidateIds(value)) {
        if (seen.has(id)) continue;
        seen.add(id);
        const doc = this.collection.get(id);
        if (doc && [...keysOf(doc, this.path)].some((key) => wanted.has(key))) found.push(doc);
      }
    }
    return found;
  }
}

/**
 * Without a usable index: one hash of the foreign documents by their keys on the field, built on the
 * first look-up and kept for the whole command. Results are in the collection's natural order.
 */
class HashedField implements ForeignField {
  private readonly path: string[];
  private docs: Doc[] = [];
  /** Positions of the documents holding each key: a number for one document (most keys), else an array. */
  private buckets?: Map<string, number | number[]>;

  constructor(
    private readonly source: () => Iterable<Doc>,
    field: string,
    private readonly collation?: Doc,
  ) {
    this.path = field.split('.');
  }

  private build(): Map<string, number | number[]> {
    const buckets = new Map<string, number | number[]>();
    const docs = (this.docs = Array.from(this.source()));
    for (let position = 0; position < docs.length; position++) {
      for (const key of keysOf(docs[position], this.path, this.collation)) {
        const bucket = buckets.get(key);
        if (bucket === undefined) buckets.set(key, position);
        else if (typeof bucket === 'number') buckets.set(key, [bucket, position]);
        else bucket.push(position);
      }
    }
    return buckets;
  }

  private positions(key: string): number[] {
    const bucket = this.buckets?.get(key);
    return bucket === undefined ? [] : typeof bucket === 'number' ? [bucket] : bucket;
  }

  find(values: unknown[]): Doc[] {
    this.buckets ??= this.build();
    const keys = [...distinct(values, this.collation).keys()];
    if (keys.length === 1) return this.positions(keys[0]).map((position) => this.docs[position]);
    const positions = new Set(keys.flatMap((key) => this.positions(key)));
    return [...positions].sort((a, b) => a - b).map((position) => this.docs[position]);
  }
}

/** Equality look-ups on `field` of the source: through an index when one serves them, else a hash. */
export function foreignField(source: ReadSource, field: string, collation?: Doc): ForeignField {
  if (!source) return { find: () => [] };
  if (Array.isArray(source)) return new HashedField(() => source, field, collation);
  const index = collation ? undefined : equalityIndex(source, field);
  return index ? new IndexedField(source, index, field) : new HashedField(() => source.docs.values(), field, collation);
}

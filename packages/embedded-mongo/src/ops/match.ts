import { Query } from 'mingo/query';
import type { SortSpec } from 'mingo/types';
import { MongoError } from '../errors';
import { candidates } from '../indexes/planner';
import { effectiveFilter, filterOptions, type QueryEnv } from '../query/mingo-options';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import { withInheritedTypes } from './result-types';
import { detachExcluded } from './shared-stages';
import { withinBounds, type IndexBounds } from './index-bounds';
import { findSearchMatches, isSearchQuery } from './search-match';

export interface MatchOptions {
  sort?: Doc;
  skip?: number;
  limit?: number;
  projection?: Doc;
  hint?: unknown;
  bounds?: IndexBounds;
}

/** A hint must name an existing, visible index, by name or key pattern (`$natural` needs none), as MongoDB checks. */
export function checkHint(collection: Collection | undefined, hint: unknown): void {
  if (!collection || hint === undefined || hint === null || hint === '$natural') return;
  if (isDoc(hint) && (Object.keys(hint).length === 0 || '$natural' in hint)) return;
  const pattern = JSON.stringify(hint);
  const exists = [...collection.indexes.values()].some((index) => !index.spec.hidden && (index.name === hint || JSON.stringify(index.spec.key) === pattern));
  if (!exists) throw new MongoError('BadValue', 'error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index');
}

/** What reads run over: a collection (with its indexes), a view's documents, or nothing. */
export type ReadSource = Collection | Doc[] | undefined;

/** `$natural` order asked by the sort or the hint: 1 (insertion order), -1 (reverse) or undefined. */
function naturalOrder(options: MatchOptions): number | undefined {
  const natural = (isDoc(options.sort) ? options.sort.$natural : undefined) ?? (isDoc(options.hint) ? options.hint.$natural : undefined);
  return natural === undefined ? undefined : Number(natural) < 0 ? -1 : 1;
}

/** The documents to filter, in scan order: index candidates, or every document when `$natural` order is asked. */
function scanned(source: Collection | Doc[], filter: Doc, env: QueryEnv, options: MatchOptions): Doc[] {
  const natural = naturalOrder(options);
  let docs = Array.isArray(source) ? source : Array.from(natural === undefined ? candidates(source, filter, env.collation) : source.docs.values());
  if (natural === -1) docs = [...docs].reverse();
  if (!Array.isArray(source) && (options.bounds?.min || options.bounds?.max)) docs = withinBounds(source, docs, options.hint, options.bounds);
  return docs;
}

/** Documents of the source matching the filter, with sort/skip/limit/projection applied by mingo. */
export function findMatches(source: ReadSource, filter: Doc, env: QueryEnv, options: MatchOptions = {}): Doc[] {
  // Text and geo queries are answered through their own indexes (src/ops/search-match.ts).
  if (isSearchQuery(source, filter, options)) return findSearchMatches(source, filter, env, options);
  if (!Array.isArray(source)) checkHint(source, options.hint);
  // Built first so an invalid filter fails even when the collection does not exist.
  const query = new Query(effectiveFilter(filter, env), filterOptions(env, filter));
  if (!source) return [];
  let cursor = query.find<Doc>(scanned(source, filter, env, options));
  const { $natural: _natural, ...sort } = options.sort ?? {};
  if (Object.keys(sort).length) cursor = cursor.sort(sort as SortSpec);
  if (options.skip) cursor = cursor.skip(options.skip);
  if (options.limit) cursor = cursor.limit(Math.abs(options.limit));
  const matches = cursor.all();
  return options.projection && Object.keys(options.projection).length ? project(matches, options.projection, env) : matches;
}

/** mingo's projection, with `_id` first as MongoDB returns it and the BSON number types kept. */
export function project(docs: Doc[], projection: Doc, env: QueryEnv = {}): Doc[] {
  // mingo's projection removes dotted exclusions from the objects it is given: those get copies.
  const query = new Query({}, filterOptions(env, {}, projection));
  const projected = query.find<Doc>(detachExcluded(docs, projection), projection).all();
  return projected.map((doc, i) => {
    const ordered = '_id' in doc ? { _id: doc._id, ...doc } : doc;
    return withInheritedTypes(docs[i], ordered) as Doc;
  });
}

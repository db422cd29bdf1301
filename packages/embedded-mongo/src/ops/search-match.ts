import { Query } from 'mingo/query';
import { copyNumberTypes } from '../bson/number-types';
import { MongoError } from '../errors';
import { GeoIndex } from '../geo/geo-index';
import { regionOf, type Region } from '../geo/geo-operators';
import { findNearCondition, planNear, withoutNear } from '../geo/near-query';
import { effectiveFilter, filterOptions, type QueryEnv } from '../query/mingo-options';
import type { Collection } from '../storage/collection';
import { TextIndex } from '../text/text-index';
import { parseTextQuery, textMatches } from '../text/text-query';
import { isDoc, type Doc } from '../types';
import type { MatchOptions, ReadSource } from './match-options';
import { project } from './projection';

/** A matching document with its text score, when the query has one. */
export interface SearchHit {
  doc: Doc;
  score?: number;
}

/** Where a score travels on copies of documents while mingo sorts or aggregates them. */
export const TEXT_SCORE_FIELD = '__textScore';

const textClauses = (filter: Doc): Doc[] =>
  [filter, ...(Array.isArray(filter.$and) ? filter.$and.filter(isDoc) : [])].filter((clause) => '$text' in clause);

const isTextScore = (value: unknown): boolean => isDoc(value) && value.$meta === 'textScore';

/** Whether a projection, sort or pipeline stage asks for `{$meta: 'textScore'}` anywhere. */
export function mentionsTextScore(value: unknown): boolean {
  if (isTextScore(value)) return true;
  if (Array.isArray(value)) return value.some(mentionsTextScore);
  return isDoc(value) && Object.values(value).some(mentionsTextScore);
}

export function noTextScore(): MongoError {
  return new MongoError('Location40218', 'query requires text score metadata, but it is not available');
}

interface RegionSearch {
  index: GeoIndex;
  region: Region;
}

/**
 * A top-level `$geoWithin`/`$within`/`$geoIntersects` on a geo-indexed field, unless a B-tree index leads
 * with another field of the filter (the planner's choice then).
 */
function regionSearch(source: ReadSource, filter: Doc): RegionSearch | undefined {
  const collection = collectionOf(source);
  if (!collection || collection.searchIndexes.size === 0) return undefined;
  const geoIndexes = [...collection.searchIndexes.values()].filter((index) => index instanceof GeoIndex);
  for (const [field, condition] of Object.entries(filter)) {
    const index = geoIndexes.find((candidate) => candidate.field === field);
    const region = index ? regionOf(condition) : undefined;
    if (!index || !region) continue;
    const planned = [...collection.indexes.values()].some(
      (other) => other.fields[0] !== field && other.fields[0] in filter,
    );
    return planned ? undefined : { index, region };
  }
  return undefined;
}

/**
 * Queries answered here: a top-level `$text`, `$near` or `$nearSphere`, or a geo region on a geo-indexed
 * field (through their indexes), and text score requests without `$text` (refused as MongoDB does).
 */
export function isSearchQuery(source: ReadSource, filter: Doc, options: MatchOptions): boolean {
  const searches = textClauses(filter).length > 0 || findNearCondition(filter) !== undefined;
  if (searches || mentionsTextScore(options.projection) || mentionsTextScore(options.sort)) return true;
  return regionSearch(source, filter) !== undefined;
}

function collectionOf(source: ReadSource): Collection | undefined {
  return Array.isArray(source) ? undefined : source;
}

function compile(filter: Doc, env: QueryEnv): (doc: Doc) => boolean {
  if (Object.keys(filter).length === 0) return () => true;
  const query = new Query(effectiveFilter(filter, env), filterOptions(env, filter));
  return (doc) => query.test(doc);
}

function withoutText(filter: Doc): Doc {
  const { $text: _text, ...rest } = filter;
  if (Array.isArray(filter.$and)) rest.$and = filter.$and.filter((clause) => !(isDoc(clause) && '$text' in clause));
  if (Array.isArray(rest.$and) && rest.$and.length === 0) delete rest.$and;
  return rest;
}

/** A compound text index answers only queries with an equality on each of its leading plain fields. */
function checkPrefix(index: TextIndex, filter: Doc): void {
  const missing = index.prefixFields.find((field) => {
    const condition = filter[field];
    return (
      condition === undefined ||
      (isDoc(condition) && Object.keys(condition).some((key) => key.startsWith('$') && key !== '$eq'))
    );
  });
  if (missing === undefined) return;
  throw new MongoError(
    'BadValue',
    'error processing query: planner returned error :: caused by :: failed to use text index to satisfy $text query ' +
      '(if text index is compound, are equality predicates given for all prefix fields?)',
  );
}

/** Documents matching a `$text` filter, in index order, with their scores. */
export function textHits(source: ReadSource, filter: Doc, env: QueryEnv): SearchHit[] {
  const clauses = textClauses(filter);
  if (clauses.length > 1) throw new MongoError('Location17287', 'Too many text expressions');
  const collection = collectionOf(source);
  const index = textIndexOf(collection);
  if (!collection || !index) throw new MongoError('IndexNotFound', 'text index required for $text query');
  checkPrefix(index, filter);
  const query = parseTextQuery(clauses[0].$text, index);
  const matches = compile(withoutText(filter), env);
  const hits: SearchHit[] = [];
  for (const [id, score] of index.scores(query.boundTerms)) {
    const doc = collection.get(id);
    if (doc && textMatches(query, index, doc) && matches(doc)) hits.push({ doc, score });
  }
  return hits;
}

function textIndexOf(collection: Collection | undefined): TextIndex | undefined {
  return [...(collection?.searchIndexes.values() ?? [])].find((index) => index instanceof TextIndex);
}

/** `explain`'s winning plan of a text or near filter (the stages MongoDB names), else undefined. */
export function searchPlan(source: ReadSource, filter: Doc): Doc | undefined {
  const collection = collectionOf(source);
  if (textClauses(filter).length) {
    const index = textIndexOf(collection);
    if (!index) throw new MongoError('IndexNotFound', 'text index required for $text query');
    const query = parseTextQuery(textClauses(filter)[0].$text, index);
    const parsedTextQuery = {
      terms: [...query.positiveTerms],
      negatedTerms: [...query.negatedTerms],
      phrases: query.phrases,
      negatedPhrases: query.negatedPhrases,
    };
    const scans = [...query.boundTerms].map(() => ({
      stage: 'IXSCAN',
      keyPattern: index.spec.key,
      indexName: index.name,
    }));
    const fetch = { stage: 'FETCH', inputStage: { stage: 'TEXT_OR', inputStages: scans } };
    return { stage: 'TEXT_MATCH', indexName: index.name, parsedTextQuery, textIndexVersion: 3, inputStage: fetch };
  }
  const near = findNearCondition(filter);
  const region = near ? undefined : regionSearch(source, filter);
  if (region) {
    const scan = { stage: 'IXSCAN', keyPattern: region.index.spec.key, indexName: region.index.name };
    return { stage: 'FETCH', filter, inputStage: scan };
  }
  if (!near) return undefined;
  const { index } = planNear(collection, collection?.ns ?? '', near.field, near.condition);
  return {
    stage: index.kind === '2d' ? 'GEO_NEAR_2D' : 'GEO_NEAR_2DSPHERE',
    keyPattern: index.spec.key,
    indexName: index.name,
  };
}

/** Documents matching a `$near`/`$nearSphere` filter, nearest first; stops after `wanted` when given. */
function nearHits(source: ReadSource, filter: Doc, env: QueryEnv, wanted?: number): SearchHit[] {
  const near = findNearCondition(filter) as { field: string; condition: Doc };
  const collection = collectionOf(source);
  const search = planNear(collection, collection?.ns ?? '', near.field, near.condition);
  const matches = compile(withoutNear(filter, near.field), env);
  const hits: SearchHit[] = [];
  for (const hit of search.index.near(search.center, search.metric, search.min, search.max)) {
    const doc = collection?.get(hit.id);
    if (doc && matches(doc)) hits.push({ doc });
    if (wanted !== undefined && hits.length >= wanted) break;
  }
  return hits;
}

/** Documents whose locations' boxes meet the region's box, checked with the whole filter; in R-tree order. */
function regionHits(collection: Collection, filter: Doc, env: QueryEnv, search: RegionSearch): SearchHit[] {
  const matches = compile(filter, env);
  const hits: SearchHit[] = [];
  for (const id of search.index.idsIn(search.region.box)) {
    const doc = collection.get(id);
    if (doc && matches(doc)) hits.push({ doc });
  }
  return hits;
}

/** Copies carrying the score, so mingo can sort on it (`{$meta: 'textScore'}` sorts descending). */
function sortHits(hits: SearchHit[], sort: Doc, env: QueryEnv): SearchHit[] {
  const fields = Object.keys(sort);
  if (fields.length === 1 && isTextScore(sort[fields[0]])) {
    return [...hits].sort((a, b) => (b.score ?? 0) - (a.score ?? 0)); // the common "best first": no copies
  }
  const spec = Object.fromEntries(
    Object.entries(sort).map(([field, order]) => (isTextScore(order) ? [TEXT_SCORE_FIELD, -1] : [field, order])),
  );
  const byCopy = new Map<Doc, SearchHit>();
  const copies = hits.map((hit) => {
    const copy = { ...hit.doc, [TEXT_SCORE_FIELD]: hit.score };
    byCopy.set(copy, hit);
    return copy;
  });
  const sorted = new Query({}, filterOptions(env, {})).find<Doc>(copies).sort(spec).all();
  return sorted.map((copy) => byCopy.get(copy) as SearchHit);
}

/** The projection, with `{$meta: 'textScore'}` fields added after the projected ones. */
function projectHits(hits: SearchHit[], projection: Doc | undefined, env: QueryEnv): Doc[] {
  const docs = hits.map((hit) => hit.doc);
  if (!projection || Object.keys(projection).length === 0) return docs;
  const metaFields = Object.keys(projection).filter((field) => isTextScore(projection[field]));
  const rest = Object.fromEntries(Object.entries(projection).filter(([field]) => !metaFields.includes(field)));
  const projected = Object.keys(rest).length ? project(docs, rest, env) : docs;
  if (metaFields.length === 0) return projected;
  return projected.map((doc, i) => {
    const withScore: Doc = { ...doc };
    copyNumberTypes(doc, withScore);
    for (const field of metaFields) withScore[field] = hits[i].score;
    return withScore;
  });
}

/**
 * `findMatches` for text and near filters: candidates come from the text or geo index (text in index
 * order with scores, near in distance order), then sort, skip, limit and projection as usual.
 */
export function findSearchMatches(source: ReadSource, filter: Doc, env: QueryEnv, options: MatchOptions): Doc[] {
  const textual = textClauses(filter).length > 0;
  const near = findNearCondition(filter) !== undefined;
  const region = textual || near ? undefined : regionSearch(source, filter);
  if (!textual && !near && !region) throw noTextScore();
  if (source === undefined) return []; // a collection that does not exist matches nothing, as in MongoDB
  const { $natural: _natural, ...sort } = options.sort ?? {};
  const sorted = Object.keys(sort).length > 0;
  const skip = options.skip ?? 0;
  const limit = options.limit ? Math.abs(options.limit) : undefined;
  const wanted = !sorted && limit !== undefined ? skip + limit : undefined;
  if (!textual && (mentionsTextScore(options.projection) || mentionsTextScore(sort))) throw noTextScore();
  const hits = textual
    ? textHits(source, filter, env)
    : region
      ? regionHits(source as Collection, filter, env, region)
      : nearHits(source, filter, env, wanted);
  const ordered = sorted ? sortHits(hits, sort, env) : hits;
  return projectHits(ordered.slice(skip, limit === undefined ? undefined : skip + limit), options.projection, env);
}

import { toCollation } from '../query/mingo-options';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import type { Index } from './index';
import { keyRanges, type KeyBounds } from './index-ranges';
import {
  ARRAY_KEYS,
  containedIn,
  FULL_INTERVAL,
  intersectAll,
  isFull,
  isPoint,
  unionIntervals,
  type Interval,
} from './interval';
import { analyzeFilter, type FieldPredicate, type FilterAnalysis } from './predicates';

/*
 * Candidate solutions of a query: how each usable index (or an `$or` over indexes, or a collection scan)
 * would read its matches, with index bounds from the filter's predicates (see predicates.ts).
 */

/** What a read asks of the planner. */
export interface QuerySpec {
  filter: Doc;
  /** Sort pattern without `$natural`. */
  sort?: Doc;
  skip?: number;
  limit?: number;
  /** Only part of the plan cache key. */
  projection?: Doc;
  hint?: unknown;
  collation?: Doc;
  /** `$natural` order asked by the sort or the hint. */
  natural?: 1 | -1;
  /** The full filter (mingo), re-checked on every candidate document unless the index bounds are exact. */
  matches: (doc: Doc) => boolean;
  /** Conditions beyond the filter (find's min/max) are in `matches`: never skip the re-check. */
  alwaysRecheck?: boolean;
  /** Sorts documents by the pattern with the query's collation (mingo). */
  sortDocs: (docs: Doc[], pattern: Doc) => Doc[];
  /** Planning a count (its own plan cache entries; a cached choice is not run before the count). */
  counting?: boolean;
  /**
   * The filter's `valuesKey`, when it has one: the plan cache keeps the chosen index's solution for these values, so
   * that a query repeated with the same values (a listing page) is not analysed again.
   */
  values?: string;
}

/** How a plan reads the collection, before it is built into stages. */
export type Solution =
  { kind: 'collscan'; forward: boolean } | { kind: 'or'; branches: IndexSolution[] } | IndexSolution;

export interface IndexSolution {
  kind: 'index';
  index: Index;
  bounds: KeyBounds;
  forward: boolean;
  /** Keys within the bounds are exactly the matches: no re-check, and a count reads keys only. */
  exact: boolean;
  providesSort: boolean;
  /** Fields whose points are scanned separately and merged in sort order (see SortOrder). */
  explode: number[];
}

const isCollated = (collation: unknown): boolean => toCollation(collation as Doc | undefined) !== undefined;

/** An index the planner may choose without a hint: a plain ascending/descending key, visible. */
function isPlannable(index: Index): boolean {
  return !index.spec.hidden && Object.values(index.spec.key).every((direction) => direction === 1 || direction === -1);
}

/**
 * Bounds of one key field: the intersection of its predicates, or only the first on a multikey field. Keys
 * that are arrays (nested arrays) are always scanned too: mingo's matching may descend into them.
 */
function fieldBounds(index: Index, field: number, predicates: FieldPredicate[] | undefined): Interval[] {
  if (!predicates?.length) return [FULL_INTERVAL];
  const lists = predicates.map((predicate) => predicate.intervals);
  const bounds = index.fieldIsMultiKey(field) ? lists[0] : intersectAll(lists);
  return index.holdsArrayKeys(field) ? unionIntervals([...bounds, ARRAY_KEYS]) : bounds;
}

/**
 * How the index returns the sort order: scanning forward or backward, after splitting the scan into one
 * scan per combination of the points of `explode` fields (an `$in` before the sort fields) whose sorted
 * outputs are merged (MongoDB's SORT_MERGE).
 */
interface SortOrder {
  forward: boolean;
  explode: number[];
}

/** MongoDB's internalQueryMaxScansToExplode: more point combinations are sorted in memory instead. */
const MAX_SCANS_TO_EXPLODE = 200;

const isSinglePoint = (intervals: Interval[]): boolean => intervals.length === 1 && isPoint(intervals[0]);

/**
 * Whether (and how) the index can return the documents in the sort order. A multikey field may come before the sort
 * fields when each scan reads one point of it (a single point, or exploded points): a document then has one entry
 * per scan, in the order of its sort fields, which must hold no arrays (MongoDB's rule for multikey indexes).
 */
function sortOrder(index: Index, bounds: KeyBounds, sort: Doc | undefined, collated: boolean): SortOrder | undefined {
  const wanted = Object.entries(sort ?? {});
  const plainSort = wanted.length > 0 && wanted.every(([, dir]) => dir === 1 || dir === -1);
  if (!plainSort || collated) return undefined;
  let matched = 0;
  let direction = 0;
  const explode: number[] = [];
  for (let i = 0; i < index.fields.length && matched < wanted.length; i++) {
    const [field, dir] = wanted[matched];
    if (index.fields[i] === field && index.fieldIsMultiKey(i)) return undefined;
    if (index.fields[i] === field) {
      const fieldDirection = Number(dir) * index.directions[i];
      if (direction !== 0 && fieldDirection !== direction) return undefined;
      direction = fieldDirection;
      matched++;
    } else if (matched === 0 && bounds[i].length > 1 && bounds[i].every(isPoint)) {
      explode.push(i);
    } else if (!isSinglePoint(bounds[i])) {
      return undefined;
    }
  }
  const scans = explode.reduce((product, i) => product * bounds[i].length, 1);
  if (matched < wanted.length || scans > MAX_SCANS_TO_EXPLODE) return undefined;
  return { forward: direction > 0, explode };
}

/** One copy of the bounds per combination of the points of the exploded fields. */
export function explodedBounds(bounds: KeyBounds, explode: number[]): KeyBounds[] {
  let variants: KeyBounds[] = [bounds];
  for (const field of explode) {
    const split = (variant: KeyBounds): KeyBounds[] =>
      variant[field].map((point) => variant.map((intervals, i) => (i === field ? [point] : intervals)));
    variants = variants.flatMap(split);
  }
  return variants;
}

function solutionFor(index: Index, analysis: FilterAnalysis, spec: QuerySpec, collated: boolean): IndexSolution {
  const bounds = index.fields.map((field, i) => fieldBounds(index, i, analysis.fields.get(field)));
  const exact =
    analysis.allIndexable &&
    multiKeyFieldsExact(index, analysis) &&
    !spec.alwaysRecheck &&
    !index.spec.partialFilterExpression;
  const sorted = sortOrder(index, bounds, spec.sort, collated);
  return {
    kind: 'index',
    index,
    bounds,
    forward: sorted?.forward ?? true,
    exact: exact && boundsAreExact(index, analysis),
    providesSort: sorted !== undefined,
    explode: sorted?.explode ?? [],
  };
}

/**
 * Whether the bounds of the index's multikey fields are exactly their conditions: one predicate per such field (the
 * bounds take only the first), an equality or `$in` of scalars (an entry per element: a document has a key in those
 * points exactly when one of its elements, or its scalar value, equals one), and no nested arrays among the keys.
 */
function multiKeyFieldsExact(index: Index, analysis: FilterAnalysis): boolean {
  return index.fields.every((field, i) => {
    if (!index.fieldIsMultiKey(i)) return true;
    const predicates = analysis.fields.get(field);
    if (!predicates) return true;
    const [only] = predicates;
    return predicates.length === 1 && only.intervals.every(isPoint) && !index.holdsArrayKeys(i);
  });
}

/** Whether every predicate of the filter is an exact condition on a key field of the index. */
function boundsAreExact(index: Index, analysis: FilterAnalysis): boolean {
  return [...analysis.fields].every(([field, predicates]) => {
    return index.fields.includes(field) && predicates.every((predicate) => predicate.exact);
  });
}

/** A sparse index holds only documents with one of its fields: usable when the filter requires one. */
function sparseUsable(index: Index, analysis: FilterAnalysis): boolean {
  return index.fields.some((field) => analysis.fields.get(field)?.some((predicate) => predicate.requiresField));
}

/** Whether every condition of the partial filter is implied by a condition of the query on the same field. */
function partialUsable(index: Index, analysis: FilterAnalysis): boolean {
  const partial = analyzeFilter(index.spec.partialFilterExpression as Doc, false);
  if (!partial.allIndexable) return false;
  return [...partial.fields].every(([field, required]) =>
    required.every((condition) =>
      (analysis.fields.get(field) ?? []).some((predicate) => implies(predicate, condition)),
    ),
  );
}

function implies(predicate: FieldPredicate, condition: FieldPredicate): boolean {
  return (predicate.requiresField || !condition.requiresField) && containedIn(predicate.intervals, condition.intervals);
}

/** Analyses of the filter with and without string bounds (collated queries and indexes cannot seek strings). */
class Analyses {
  private readonly cache = new Map<boolean, FilterAnalysis>();

  constructor(
    private readonly filter: Doc,
    readonly queryCollated: boolean,
  ) {}

  forIndex(index: Index): FilterAnalysis {
    return this.get(this.queryCollated || isCollated(index.spec.collation));
  }

  get(collated: boolean): FilterAnalysis {
    let analysis = this.cache.get(collated);
    if (!analysis) {
      analysis = analyzeFilter(this.filter, collated);
      this.cache.set(collated, analysis);
    }
    return analysis;
  }
}

/** One solution per index that narrows the scan or provides the sort. */
function indexSolutions(collection: Collection, analyses: Analyses, spec: QuerySpec): IndexSolution[] {
  const solutions: IndexSolution[] = [];
  for (const index of collection.indexes.values()) {
    const solution = usableSolution(index, analyses, spec);
    if (solution) solutions.push(solution);
  }
  return solutions;
}

/** The index's solution when the planner may choose it: it narrows the scan or provides the sort. */
function usableSolution(index: Index, analyses: Analyses, spec: QuerySpec): IndexSolution | undefined {
  if (!isPlannable(index)) return undefined;
  const analysis = analyses.forIndex(index);
  if (index.spec.sparse && !sparseUsable(index, analysis)) return undefined;
  if (index.spec.partialFilterExpression && !partialUsable(index, analysis)) return undefined;
  const collated = analyses.queryCollated || isCollated(index.spec.collation);
  const solution = solutionFor(index, analysis, spec, collated);
  const narrows = !solution.bounds[0].every(isFull) || (index.spec.sparse === true && sparseUsable(index, analysis));
  return narrows || solution.providesSort ? solution : undefined;
}

/**
 * The solution of the index named `name` for a query without a hint or `$natural` order, if it is one of the
 * candidates (`candidateSolutions`): what a cached choice of one index is run with, without building the solution
 * of every other index (a storefront query has a dozen candidates; building them all was most of its planning).
 */
export function namedIndexSolution(collection: Collection, spec: QuerySpec, name: string): IndexSolution | undefined {
  if (isHinted(spec) || spec.natural) return undefined;
  const index = collection.indexes.get(name);
  return index && usableSolution(index, new Analyses(spec.filter, isCollated(spec.collation)), spec);
}

/**
 * The `_id` index's solution when the filter's top-level `_id` condition pins it to points (an equality, `$eq` or
 * `$in` of values the index seeks exactly); the other conditions are re-checked on the documents. MongoDB reads
 * `{_id: v, ...}` through the `_id` index whatever else the filter says; so does this planner, with no other
 * candidates, trial or plan cache: a unique index's point look-ups read at most one document per point, which no
 * other index beats. (That planning was about 30 % of the server's command time in a storefront stock adjustment,
 * whose writes are by `_id` and a version and whose index entries are read by `_id: {$in}`.) A hint or a `$natural`
 * order is the caller's choice, left to `candidateSolutions`.
 */
export function idPointSolution(collection: Collection, spec: QuerySpec): IndexSolution | undefined {
  if (!('_id' in spec.filter) || isHinted(spec) || spec.natural) return undefined;
  const index = collection.indexes.get('_id_');
  if (!index || !isPlannable(index)) return undefined;
  const collated = isCollated(spec.collation) || isCollated(index.spec.collation);
  // Only the `_id` condition is analysed: the others are re-checked on the document each point finds.
  const analysis = analyzeFilter({ _id: spec.filter._id }, collated);
  if (Object.keys(spec.filter).length > 1) analysis.allIndexable = false;
  const solution = solutionFor(index, analysis, spec, collated);
  return solution.bounds[0].every(isPoint) ? solution : undefined;
}

/** Keys a solution's bounds hold, counted up to `cap`: the branch-selectivity statistic for `$or`. */
function estimatedKeys(solution: IndexSolution, cap: number): number {
  let keys = 0;
  for (const range of keyRanges(solution.index, solution.bounds, true)) {
    for (const _entry of solution.index.entriesIn(range, true)) if (++keys >= cap) return keys;
  }
  return keys;
}

const OR_BRANCH_ESTIMATE_CAP = 1000;

/**
 * `$or` as a union of index scans: every branch needs an index narrowing it (else only a collection scan
 * can find its matches); each branch takes the index whose bounds hold the fewest keys. The conditions
 * beside the `$or` hold in every branch, so they bound the branch scans too (`{a: 1, $or: [{b: 1}, ...]}`
 * can scan `{a: 1, b: 1}`).
 */
function orSolution(collection: Collection, branches: Doc[], spec: QuerySpec, collated: boolean): Solution | undefined {
  const { $or: _branches, ...beside } = spec.filter;
  const chosen: IndexSolution[] = [];
  for (const branch of branches) {
    const filter = { $and: [beside, branch] };
    const branchSpec = { ...spec, filter, sort: undefined, alwaysRecheck: true };
    const solutions = indexSolutions(collection, new Analyses(filter, collated), branchSpec);
    const options = solutions.filter((solution) => !solution.bounds[0].every(isFull));
    if (options.length === 0) return undefined;
    chosen.push(fewestKeys(options));
  }
  return { kind: 'or', branches: chosen };
}

/** Fields of a solution's index whose bounds narrow the scan. */
function boundedFields(solution: IndexSolution): number {
  return solution.bounds.filter((intervals) => !intervals.every(isFull)).length;
}

/**
 * The option whose bounds hold the fewest keys. Estimates stop at the cap, so two large branches can tie;
 * the tie goes to the option bounding more fields, as MongoDB's planner prefers the tighter index (a scope
 * scan and an equality on the scope's typo keys both count 1,000 at shop scale; the second reads far fewer).
 */
function fewestKeys(options: IndexSolution[]): IndexSolution {
  const ranked = options.map((option) => ({
    option,
    keys: estimatedKeys(option, OR_BRANCH_ESTIMATE_CAP),
    fields: boundedFields(option),
  }));
  ranked.sort((a, b) => a.keys - b.keys || b.fields - a.fields);
  return ranked[0].option;
}

function isHinted({ hint }: QuerySpec): boolean {
  return hint !== undefined && hint !== null && !(isDoc(hint) && Object.keys(hint).length === 0);
}

/** The hinted solution: the index named or patterned by the hint (or a collection scan for `$natural`). */
function hintedSolution(collection: Collection, spec: QuerySpec): Solution | undefined {
  if (!isHinted(spec)) return undefined;
  const { hint } = spec;
  const natural = hint === '$natural' || (isDoc(hint) && '$natural' in hint);
  if (natural) return { kind: 'collscan', forward: spec.natural !== -1 };
  const pattern = JSON.stringify(hint);
  const named = (index: Index): boolean => index.name === hint || JSON.stringify(index.spec.key) === pattern;
  const index = [...collection.indexes.values()].find(named);
  if (!index) return undefined;
  const analyses = new Analyses(spec.filter, isCollated(spec.collation));
  const collated = analyses.queryCollated || isCollated(index.spec.collation);
  return solutionFor(index, analyses.forIndex(index), { ...spec, alwaysRecheck: true }, collated);
}

/** Candidate solutions: the hinted one, else one per usable index and the `$or` union, else a collection scan. */
export function candidateSolutions(collection: Collection, spec: QuerySpec): Solution[] {
  const hinted = hintedSolution(collection, spec);
  if (hinted) return [hinted];
  if (spec.natural) return [{ kind: 'collscan', forward: spec.natural === 1 }];
  const analyses = new Analyses(spec.filter, isCollated(spec.collation));
  const solutions: Solution[] = indexSolutions(collection, analyses, spec);
  const { or } = analyses.get(analyses.queryCollated);
  const union = or ? orSolution(collection, or, spec, analyses.queryCollated) : undefined;
  if (union) solutions.push(union);
  return solutions.length ? solutions : [{ kind: 'collscan', forward: true }];
}

import { toCollation } from '../query/mingo-options';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import type { Entry, Index } from './index';
import { keyRanges, type IndexBounds } from './index-ranges';
import {
  ARRAY_KEYS,
  compareKeys,
  containedIn,
  FULL_INTERVAL,
  intersectAll,
  isFull,
  isPoint,
  unionIntervals,
  type Interval,
} from './interval';
import { analyzeFilter, type FieldPredicate, type FilterAnalysis } from './predicates';
import {
  CollectionScan,
  CountStage,
  FetchStage,
  IndexScan,
  LimitStage,
  MergeSortStage,
  OrStage,
  SkipStage,
  SortStage,
  type PlanStage,
} from './plan-stages';

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
}

/** How a plan reads the collection, before it is built into stages. */
type Solution =
  | { kind: 'collscan'; forward: boolean }
  | { kind: 'or'; branches: IndexSolution[] }
  | IndexSolution;

interface IndexSolution {
  kind: 'index';
  index: Index;
  bounds: IndexBounds;
  forward: boolean;
  /** Keys within the bounds are exactly the matches: no re-check, and a count reads keys only. */
  exact: boolean;
  providesSort: boolean;
  /** Fields whose points are scanned separately and merged in sort order (see SortOrder). */
  explode: number[];
}

export interface QueryPlan<T = Doc> {
  root: PlanStage<T>;
  /** Results the winner produced during the trial run, returned before the rest. */
  buffered: T[];
  /** Candidates that lost the trial (explain's rejectedPlans). */
  rejected: PlanStage<unknown>[];
  /** Key pattern of the single index the plan reads, if any (find's returnKey). */
  keyPattern?: Doc;
  fromCache: boolean;
  /** The query shape the plan cache keys on (explain's queryHash is derived from it). */
  shape: string;
}

/** Every result of a plan, lazily: the trial's buffered results first. */
export function* execute<T>(plan: QueryPlan<T>): Generator<T> {
  yield* plan.buffered;
  plan.buffered = [];
  yield* plan.root.results();
}

// ---------------------------------------------------------------- candidate solutions

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

/** Whether (and how) the index can return the documents in the sort order. */
function sortOrder(index: Index, bounds: IndexBounds, sort: Doc | undefined, collated: boolean): SortOrder | undefined {
  const wanted = Object.entries(sort ?? {});
  const plainSort = wanted.length > 0 && wanted.every(([, dir]) => dir === 1 || dir === -1);
  if (!plainSort || index.multiKey || collated) return undefined;
  let matched = 0;
  let direction = 0;
  const explode: number[] = [];
  for (let i = 0; i < index.fields.length && matched < wanted.length; i++) {
    const [field, dir] = wanted[matched];
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
function explodedBounds(bounds: IndexBounds, explode: number[]): IndexBounds[] {
  let variants: IndexBounds[] = [bounds];
  for (const field of explode) {
    const split = (variant: IndexBounds): IndexBounds[] =>
      variant[field].map((point) => variant.map((intervals, i) => (i === field ? [point] : intervals)));
    variants = variants.flatMap(split);
  }
  return variants;
}

function solutionFor(index: Index, analysis: FilterAnalysis, spec: QuerySpec, collated: boolean): IndexSolution {
  const bounds = index.fields.map((field, i) => fieldBounds(index, i, analysis.fields.get(field)));
  const exact = analysis.allIndexable && !index.multiKey && !spec.alwaysRecheck && !index.spec.partialFilterExpression;
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

/** Whether every predicate of the filter is an exact condition on a key field of the (non-multikey) index. */
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
    if (!isPlannable(index)) continue;
    const analysis = analyses.forIndex(index);
    if (index.spec.sparse && !sparseUsable(index, analysis)) continue;
    if (index.spec.partialFilterExpression && !partialUsable(index, analysis)) continue;
    const collated = analyses.queryCollated || isCollated(index.spec.collation);
    const solution = solutionFor(index, analysis, spec, collated);
    const narrows = !solution.bounds[0].every(isFull) || (index.spec.sparse === true && sparseUsable(index, analysis));
    if (narrows || solution.providesSort) solutions.push(solution);
  }
  return solutions;
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
    const estimates = options.map((option) => estimatedKeys(option, OR_BRANCH_ESTIMATE_CAP));
    chosen.push(options[estimates.indexOf(Math.min(...estimates))]);
  }
  return { kind: 'or', branches: chosen };
}

// ---------------------------------------------------------------- building stages

function indexScanTree(collection: Collection, solution: IndexSolution, spec: QuerySpec): PlanStage<Doc> {
  const merged = solution.explode.length > 0;
  const scan = merged ? mergedScans(collection, solution, spec.sort as Doc) : singleScan(collection, solution);
  if (solution.exact) return new FetchStage(collection, scan, undefined);
  return new FetchStage(collection, scan, spec.filter, spec.matches);
}

function singleScan(collection: Collection, solution: IndexSolution): IndexScan {
  return new IndexScan(collection, solution.index, solution.bounds, solution.forward);
}

/** One scan per combination of the exploded points, merged in sort order (SORT_MERGE). */
function mergedScans(collection: Collection, solution: IndexSolution, sort: Doc): PlanStage<Entry> {
  const { index, forward } = solution;
  const variants = explodedBounds(solution.bounds, solution.explode);
  const scans = variants.map((bounds) => new IndexScan(collection, index, bounds, forward));
  const positions = Object.keys(sort).map((field) => index.fields.indexOf(field));
  const order = (position: number): number => index.directions[position] * (forward ? 1 : -1);
  const compare = (a: Entry, b: Entry): number => {
    for (const position of positions) {
      const cmp = compareKeys(a.key[position], b.key[position]) * order(position);
      if (cmp !== 0) return cmp;
    }
    return 0;
  };
  return new MergeSortStage(scans, sort, compare);
}

/** The stages reading the matches, without sort, skip and limit. */
function readTree(collection: Collection, solution: Solution, spec: QuerySpec): PlanStage<Doc> {
  if (solution.kind === 'collscan') {
    const matches = isEmpty(spec.filter) ? undefined : spec.matches;
    return new CollectionScan(collection, solution.forward, spec.filter, matches);
  }
  if (solution.kind === 'index') return indexScanTree(collection, solution, spec);
  const scans = solution.branches.map((branch) => new IndexScan(collection, branch.index, branch.bounds, true));
  return new FetchStage(collection, new OrStage(scans), spec.filter, spec.matches);
}

const isEmpty = (doc: Doc | undefined): boolean => !doc || Object.keys(doc).length === 0;

/**
 * The whole plan: the read, then a blocking SORT unless the index provides the order (its top-k limit is
 * skip + limit, so no LIMIT stage follows it, as in MongoDB), then SKIP and LIMIT.
 */
function buildTree(collection: Collection, solution: Solution, spec: QuerySpec): PlanStage<Doc> {
  let root = readTree(collection, solution, spec);
  const skip = spec.skip ?? 0;
  const limit = spec.limit ?? 0;
  const pattern = spec.sort ?? {};
  const blockingSort = !isEmpty(pattern) && !(solution.kind === 'index' && solution.providesSort);
  const sortDocs = (docs: Doc[]): Doc[] => spec.sortDocs(docs, pattern);
  if (blockingSort) root = new SortStage(root, pattern, limit > 0 ? skip + limit : 0, sortDocs);
  if (skip > 0) root = new SkipStage(root, skip);
  if (limit > 0 && !blockingSort) root = new LimitStage(root, limit);
  return root;
}

// ---------------------------------------------------------------- choosing: trial run and plan cache

/** MongoDB's trial: until a plan has 101 results or ends, at most max(10000, 0.29 × documents) works each. */
const TRIAL_RESULTS = 101;
const trialWorks = (collection: Collection): number => Math.max(10_000, Math.floor(0.29 * collection.docs.size));

interface Trial {
  /** Index of the winning solution. */
  winner: number;
  trees: PlanStage<Doc>[];
  buffers: Doc[][];
}

function runTrial(collection: Collection, solutions: Solution[], spec: QuerySpec): Trial {
  const trees = solutions.map((solution) => buildTree(collection, solution, spec));
  const buffers: Doc[][] = trees.map(() => []);
  const maxWorks = trialWorks(collection);
  let finished = false;
  for (let round = 0; round < maxWorks && !finished; round++) {
    trees.forEach((tree, i) => {
      if (finished) return;
      const step = tree.work();
      if (step === undefined) finished = true;
      else if (typeof step !== 'symbol' && buffers[i].push(step) >= TRIAL_RESULTS) finished = true;
    });
  }
  const scores = trees.map((tree, i) => score(tree, solutions[i]));
  return { winner: scores.indexOf(Math.max(...scores)), trees, buffers };
}

/** MongoDB's ranking: 1 + productivity (results per work), +1 when done, a small bonus for not sorting. */
function score(tree: PlanStage<Doc>, solution: Solution): number {
  const productivity = tree.works === 0 ? 0 : tree.advanced / tree.works;
  const epsilon = Math.min(1 / (10 * Math.max(tree.works, 1)), 1e-4);
  const noSort = solution.kind === 'index' && solution.providesSort ? epsilon : 0;
  return 1 + productivity + (tree.isEOF ? 1 : 0) + noSort;
}

type Choice = { kind: 'collscan' } | { kind: 'index'; name: string } | { kind: 'or'; names: string[] };

/** A cached choice and the works its plan took in the trial that chose it. */
interface CacheEntry {
  choice: Choice;
  works: number;
}

interface PlanCache {
  signature: string;
  writesAtStart: number;
  entries: Map<string, CacheEntry>;
}

/** The cache is flushed after this many writes to the collection, as the data may have changed shape. */
const PLAN_CACHE_WRITE_LIMIT = 1000;
const planCaches = new WeakMap<Collection, PlanCache>();

/** Changes whenever an index is created, dropped, hidden or unhidden, or becomes multikey. */
function indexSignature(collection: Collection): string {
  const state = (index: Index): string => `${index.name}:${!!index.spec.hidden}:${index.multiKey}`;
  return [...collection.indexes.values()].map(state).join('|');
}

function collectionWrites(collection: Collection): number {
  return collection.indexes.get('_id_')?.writes ?? 0;
}

function planCache(collection: Collection): PlanCache {
  const signature = indexSignature(collection);
  const writes = collectionWrites(collection);
  let cache = planCaches.get(collection);
  if (!cache || cache.signature !== signature || writes - cache.writesAtStart > PLAN_CACHE_WRITE_LIMIT) {
    cache = { signature, writesAtStart: writes, entries: new Map() };
    planCaches.set(collection, cache);
  }
  return cache;
}

/** Values replaced by their type: queries differing only in values share a plan (MongoDB's query shape). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return ['array', ...new Set(value.map((item) => JSON.stringify(shapeOf(item))))].sort();
  if (isDoc(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]));
  if (value instanceof RegExp) return regexShape(value);
  return value === null ? 'null' : typeof value === 'object' ? (value as object).constructor?.name : typeof value;
}

/** Anchored and unanchored regexes plan differently. */
const regexShape = (regex: RegExp): string => `regex:${regex.source.startsWith('^')}:${regex.flags}`;

function queryShape(spec: QuerySpec): string {
  const projection = Object.keys(spec.projection ?? {}).sort();
  return JSON.stringify([shapeOf(spec.filter), spec.sort ?? {}, projection, spec.collation ?? null, !!spec.counting]);
}

function choiceOf(solution: Solution): Choice {
  if (solution.kind === 'index') return { kind: 'index', name: solution.index.name };
  if (solution.kind === 'or') return { kind: 'or', names: solution.branches.map((branch) => branch.index.name) };
  return { kind: 'collscan' };
}

function matchesChoice(solution: Solution, choice: Choice): boolean {
  return JSON.stringify(choiceOf(solution)) === JSON.stringify(choice);
}

// ---------------------------------------------------------------- entry points

/** The hinted solution: the index named or patterned by the hint (or a collection scan for `$natural`). */
function hintedSolution(collection: Collection, spec: QuerySpec): Solution | undefined {
  const { hint } = spec;
  if (hint === undefined || hint === null || (isDoc(hint) && Object.keys(hint).length === 0)) return undefined;
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

/** Candidate solutions for the query, and the cached choice among them if any. */
function candidateSolutions(collection: Collection, spec: QuerySpec): Solution[] {
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

interface Chosen {
  solution: Solution;
  /** The chosen plan's stages when it already ran (trial or cached-plan check), with what it produced. */
  started?: { root: PlanStage<Doc>; buffered: Doc[] };
  rejected: Solution[];
  /** Trial runs of the rejected solutions, when there was a trial. */
  rejectedTrees?: PlanStage<Doc>[];
  fromCache: boolean;
}

/** A cached plan may use this many times the works of the trial that chose it before it is re-planned. */
const REPLAN_FACTOR = 10;
const MIN_REPLAN_WORKS = 100;

/**
 * Runs a cached plan as MongoDB's CachedPlanStage does: if it neither finishes nor produces 101 results
 * within 10× the works it took in its trial, the cache entry is dropped and the query re-planned.
 */
function runCached(tree: PlanStage<Doc>, trialWorks: number): Doc[] | undefined {
  const buffered: Doc[] = [];
  const budget = Math.max(REPLAN_FACTOR * trialWorks, MIN_REPLAN_WORKS);
  for (let works = 0; works < budget; works++) {
    const step = tree.work();
    if (step === undefined) return buffered;
    if (typeof step !== 'symbol' && buffered.push(step) >= TRIAL_RESULTS) return buffered;
  }
  return undefined;
}

/** The cached choice among the solutions, already started, unless it has to be re-planned. */
function cachedChoice(
  collection: Collection,
  solutions: Solution[],
  spec: QuerySpec,
  entry: CacheEntry,
): Chosen | undefined {
  const hit = solutions.find((solution) => matchesChoice(solution, entry.choice));
  if (!hit) return undefined;
  const rejected = solutions.filter((solution) => solution !== hit);
  // A count reads keys or documents without returning them: the cached choice is taken as it is.
  if (spec.counting) return { solution: hit, rejected, fromCache: true };
  const root = buildTree(collection, hit, spec);
  const buffered = runCached(root, entry.works);
  if (!buffered) return undefined;
  return { solution: hit, started: { root, buffered }, rejected, fromCache: true };
}

function choose(collection: Collection, spec: QuerySpec): Chosen {
  const solutions = candidateSolutions(collection, spec);
  if (solutions.length === 1) return { solution: solutions[0], rejected: [], fromCache: false };
  const cache = planCache(collection);
  const shape = queryShape(spec);
  const entry = cache.entries.get(shape);
  const cached = entry && cachedChoice(collection, solutions, spec, entry);
  if (cached) return cached;
  const { winner, trees, buffers } = runTrial(collection, solutions, spec);
  cache.entries.set(shape, { choice: choiceOf(solutions[winner]), works: trees[winner].works });
  return {
    solution: solutions[winner],
    started: { root: trees[winner], buffered: buffers[winner] },
    rejected: solutions.filter((_, i) => i !== winner),
    rejectedTrees: trees.filter((_, i) => i !== winner),
    fromCache: false,
  };
}

const collectionScanCounts = new WeakMap<Collection, number>();

/** Collection scans run on the collection since it was opened ($collStats `queryExecStats`). */
export function collectionScans(collection: Collection): number {
  return collectionScanCounts.get(collection) ?? 0;
}

/** Counts the executed plan's reads: index accesses, or a collection scan. */
function recordUse(collection: Collection, solution: Solution): void {
  if (solution.kind === 'collscan') collectionScanCounts.set(collection, collectionScans(collection) + 1);
  else if (solution.kind === 'index') solution.index.accesses++;
  else for (const branch of solution.branches) branch.index.accesses++;
}

function keyPatternOf(solution: Solution): Doc | undefined {
  return solution.kind === 'index' ? solution.index.spec.key : undefined;
}

/** Plans a find (or the read of an update, delete or aggregate): candidates, trial run, cached choice. */
export function planQuery(collection: Collection, spec: QuerySpec): QueryPlan<Doc> {
  const chosen = choose(collection, spec);
  recordUse(collection, chosen.solution);
  return {
    root: chosen.started?.root ?? buildTree(collection, chosen.solution, spec),
    buffered: chosen.started?.buffered ?? [],
    rejected: chosen.rejectedTrees ?? chosen.rejected.map((solution) => buildTree(collection, solution, spec)),
    keyPattern: keyPatternOf(chosen.solution),
    fromCache: chosen.fromCache,
    shape: queryShape(spec),
  };
}

/** Plans a count: keys only (COUNT_SCAN) when the chosen index's bounds are exact, else the matches counted. */
export function planCount(collection: Collection, spec: QuerySpec): QueryPlan<number> {
  const readSpec = { ...spec, skip: 0, limit: 0, sort: undefined, counting: true };
  const chosen = choose(collection, readSpec);
  const { solution } = chosen;
  recordUse(collection, solution);
  const keysOnly = solution.kind === 'index' && solution.exact;
  const input = keysOnly ? keyCount(collection, solution) : readTree(collection, solution, readSpec);
  return {
    root: new CountStage(input, spec.skip ?? 0, spec.limit ?? 0),
    buffered: [],
    rejected: chosen.rejected.map((other) => readTree(collection, other, readSpec)),
    keyPattern: keyPatternOf(solution),
    fromCache: chosen.fromCache,
    shape: queryShape(readSpec),
  };
}

/** Keys counted without fetching: one key range is MongoDB's COUNT_SCAN, several an IXSCAN. */
function keyCount(collection: Collection, solution: IndexSolution): IndexScan {
  const { index, bounds, forward } = solution;
  const name = keyRanges(index, bounds, true).length === 1 ? 'COUNT_SCAN' : 'IXSCAN';
  return new IndexScan(collection, index, bounds, forward, name);
}

/**
 * The documents the chosen plan reads before the filter is applied (index candidates, else every
 * document): what the planner narrows a query to.
 */
export function candidates(collection: Collection, filter: Doc, collation?: Doc): Doc[] {
  const spec: QuerySpec = { filter, collation, matches: () => true, alwaysRecheck: true, sortDocs: (docs) => docs };
  return [...execute(planQuery(collection, spec))];
}

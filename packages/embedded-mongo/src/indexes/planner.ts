import type { Collection } from '../storage/collection';
import type { Doc } from '../types';
import type { Entry } from './index';
import { keyRanges } from './index-ranges';
import { compareKeys } from './interval';
import {
  choiceOf,
  keepSingle,
  keepSolution,
  keptSingle,
  keptSolution,
  matchesChoice,
  planCache,
  queryShape,
  singleKey,
  type CacheEntry,
} from './plan-cache';
import {
  CollectionScan,
  CountStage,
  FetchStage,
  IndexScan,
  LimitStage,
  MergeSortStage,
  NEED_TIME,
  OrStage,
  SkipStage,
  SortStage,
  type PlanStage,
} from './plan-stages';
import {
  candidateSolutions,
  explodedBounds,
  idPointSolution,
  namedIndexSolution,
  type IndexSolution,
  type QuerySpec,
  type Solution,
} from './solutions';

export type { QuerySpec } from './solutions';

export interface QueryPlan<T = Doc> {
  root: PlanStage<T>;
  /** Results the winner produced during the trial run, returned before the rest. */
  buffered: T[];
  /**
   * Candidates that lost the trial (explain's rejectedPlans). Only explain reads them: a plan from the cache builds
   * them on the first read (a storefront query has a dozen candidate indexes, and building each one's stages and
   * key ranges was a fifth of its planning).
   */
  readonly rejected: PlanStage<unknown>[];
  /** Key pattern of the single index the plan reads, if any (find's returnKey). */
  keyPattern?: Doc;
  fromCache: boolean;
  /** The query shape the plan cache keys on (explain's queryHash is derived from it); worked out when first read. */
  readonly shape: string;
}

/** Every result of a plan, lazily: the trial's buffered results first. */
export function* execute<T>(plan: QueryPlan<T>): Generator<T> {
  yield* plan.buffered;
  plan.buffered = [];
  yield* plan.root.results();
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

// ---------------------------------------------------------------- choosing: trial run, cached choices

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
      else if (step !== NEED_TIME && buffers[i].push(step) >= TRIAL_RESULTS) finished = true;
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

// ---------------------------------------------------------------- entry points

interface Chosen {
  solution: Solution;
  /** The query shape the plan cache keys on. */
  shape: string;
  /** The chosen plan's stages when it already ran (trial or cached-plan check), with what it produced. */
  started?: { root: PlanStage<Doc>; buffered: Doc[] };
  /** The other candidates (explain's rejected plans), found when first asked for. */
  rejected: () => Solution[];
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
    if (step !== NEED_TIME && buffered.push(step) >= TRIAL_RESULTS) return buffered;
  }
  return undefined;
}

/**
 * The cached choice, already started, unless it has to be re-planned. A choice of one index is built alone
 * (`namedIndexSolution`), the other candidates only when explain asks for them; an `$or` among all the candidates.
 */
function cachedChoice(collection: Collection, spec: QuerySpec, entry: CacheEntry, shape: string): Chosen | undefined {
  const { choice } = entry;
  const all = once(() => candidateSolutions(collection, spec));
  const hit =
    choice.kind === 'index'
      ? cachedIndexSolution(collection, spec, entry, choice.name)
      : all().find((solution) => matchesChoice(solution, choice));
  if (!hit) return undefined;
  const rejected = once(() => all().filter((solution) => !matchesChoice(solution, choice)));
  // A count reads keys or documents without returning them: the cached choice is taken as it is.
  if (spec.counting) return { solution: hit, shape, rejected, fromCache: true };
  const root = buildTree(collection, hit, spec);
  const buffered = runCached(root, entry.works);
  if (!buffered) return undefined;
  return { solution: hit, shape, started: { root, buffered }, rejected, fromCache: true };
}

/**
 * The solution of the cached choice of the index `name`: the one kept in the entry for the query's values while the
 * index is in the same state (`keptSolution`), else made (`namedIndexSolution`) and kept. Analysing the filter and
 * working out the bounds again was a fifth of the planning of a repeated listing page (bench README, `dbpage`);
 * MongoDB's plan cache likewise keeps the solution and only binds the values (which are the same here). Not for
 * hinted reads or `$natural` orders (`namedIndexSolution` refuses them; the shape does not tell them apart), nor for
 * reads that always re-check (min/max bounds), whose exactness the shape does not tell either.
 */
function cachedIndexSolution(
  collection: Collection,
  spec: QuerySpec,
  entry: CacheEntry,
  name: string,
): IndexSolution | undefined {
  const { values } = spec;
  const keeps = keepsSolutions(spec);
  const kept = keeps ? keptSolution(entry, values!, collection.indexes.get(name)) : undefined;
  if (kept) return kept;
  const solution = namedIndexSolution(collection, spec, name);
  if (solution && keeps) keepSolution(entry, values!, solution);
  return solution;
}

/**
 * Whether a query's solution may be kept for its values (`cachedIndexSolution`, the single solutions of `choose`):
 * it has a `valuesKey` and is neither hinted, in `$natural` order nor bounded by min/max (which always re-check).
 */
function keepsSolutions(spec: QuerySpec): boolean {
  return spec.values !== undefined && !spec.alwaysRecheck && spec.hint === undefined && !spec.natural;
}

/** The `_id` index's point look-ups (`idPointSolution`): chosen without a trial; only explain reads their shape. */
function idPointChoice(solution: IndexSolution, spec: QuerySpec): Chosen {
  return {
    solution,
    get shape() {
      return queryShape(spec);
    },
    rejected: () => [],
    fromCache: false,
  };
}

function choose(collection: Collection, spec: QuerySpec): Chosen {
  const byId = idPointSolution(collection, spec);
  if (byId) return idPointChoice(byId, spec);
  const shape = queryShape(spec);
  const cache = planCache(collection);
  const entry = cache.entries.get(shape);
  const cached = entry && cachedChoice(collection, spec, entry, shape);
  if (cached) return cached;
  const single = keepsSolutions(spec) ? singleKey(shape, spec.values!) : undefined;
  const kept = single === undefined ? undefined : keptSingle(cache, single);
  if (kept) return { solution: kept, shape, rejected: () => [], fromCache: false };
  const solutions = candidateSolutions(collection, spec);
  if (solutions.length === 1) {
    if (single !== undefined && solutions[0].kind === 'index') keepSingle(cache, single, solutions[0]);
    return { solution: solutions[0], shape, rejected: () => [], fromCache: false };
  }
  const { winner, trees, buffers } = runTrial(collection, solutions, spec);
  cache.entries.set(shape, { choice: choiceOf(solutions[winner]), works: trees[winner].works });
  const rejected = solutions.filter((_, i) => i !== winner);
  return {
    solution: solutions[winner],
    shape,
    started: { root: trees[winner], buffered: buffers[winner] },
    rejected: () => rejected,
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
  const trial = chosen.rejectedTrees;
  const rejected = trial
    ? () => trial
    : once(() => chosen.rejected().map((other) => buildTree(collection, other, spec)));
  return {
    root: chosen.started?.root ?? buildTree(collection, chosen.solution, spec),
    buffered: chosen.started?.buffered ?? [],
    get rejected() {
      return rejected();
    },
    keyPattern: keyPatternOf(chosen.solution),
    fromCache: chosen.fromCache,
    get shape() {
      return chosen.shape;
    },
  };
}

/** `build`, called the first time its value is wanted, then that value again. */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/** Plans a count: keys only (COUNT_SCAN) when the chosen index's bounds are exact, else the matches counted. */
export function planCount(collection: Collection, spec: QuerySpec): QueryPlan<number> {
  const readSpec = { ...spec, skip: 0, limit: 0, sort: undefined, counting: true };
  const chosen = choose(collection, readSpec);
  const { solution } = chosen;
  recordUse(collection, solution);
  const keysOnly = solution.kind === 'index' && solution.exact;
  const input = keysOnly ? keyCount(collection, solution) : readTree(collection, solution, readSpec);
  const rejected = once(() => chosen.rejected().map((other) => readTree(collection, other, readSpec)));
  return {
    root: new CountStage(input, spec.skip ?? 0, spec.limit ?? 0),
    buffered: [],
    get rejected() {
      return rejected();
    },
    keyPattern: keyPatternOf(solution),
    fromCache: chosen.fromCache,
    get shape() {
      return chosen.shape;
    },
  };
}

/** Keys counted without fetching: one key range is MongoDB's COUNT_SCAN, several an IXSCAN. */
function keyCount(collection: Collection, solution: IndexSolution): IndexScan {
  const { index, bounds, forward } = solution;
  const ranges = keyRanges(index, bounds, forward);
  return new IndexScan(collection, index, bounds, forward, ranges.length === 1 ? 'COUNT_SCAN' : 'IXSCAN', ranges);
}

/**
 * The documents the chosen plan reads before the filter is applied (index candidates, else every
 * document): what the planner narrows a query to.
 */
export function candidates(collection: Collection, filter: Doc, collation?: Doc): Doc[] {
  const spec: QuerySpec = { filter, collation, matches: () => true, alwaysRecheck: true, sortDocs: (docs) => docs };
  return [...execute(planQuery(collection, spec))];
}

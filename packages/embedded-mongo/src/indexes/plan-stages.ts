import { MongoError } from '../errors';
import type { Collection } from '../storage/collection';
import type { Doc } from '../types';
import type { Entry, Index, KeyRange } from './index';
import { formatBounds, keyRanges, type KeyBounds } from './index-ranges';
import { inIntervals, isFull, type Interval } from './interval';

/** A unit of work that produced nothing yet (MongoDB's NEED_TIME). */
export const NEED_TIME = Symbol('needTime');
type Step<T> = T | typeof NEED_TIME;

/**
 * A stage of an executable query plan, shaped like MongoDB's: every `work()` call does one unit of work
 * and returns a result, NEED_TIME, or undefined at the end. Counters feed explain's executionStages.
 */
export abstract class PlanStage<T = Doc> {
  works = 0;
  advanced = 0;
  needTime = 0;
  isEOF = false;
  private iterator?: Generator<Step<T>>;

  abstract readonly name: string;
  protected abstract produce(): Generator<Step<T>>;
  /** The stage's own fields in explain (queryPlanner and executionStages alike). */
  protected abstract details(): Doc;
  protected children(): PlanStage<unknown>[] {
    return [];
  }
  /** Stage-specific counters of executionStages. */
  protected counters(): Doc {
    return {};
  }

  work(): Step<T> | undefined {
    this.iterator ??= this.produce();
    this.works++;
    const next = this.iterator.next();
    if (next.done) {
      this.isEOF = true;
      return undefined;
    }
    if (next.value === NEED_TIME) this.needTime++;
    else this.advanced++;
    return next.value;
  }

  /** Every remaining result, pulled lazily. */
  *results(): Generator<T> {
    for (;;) {
      const step = this.work();
      if (step === undefined) return;
      if (step !== NEED_TIME) yield step;
    }
  }

  /** The stage as `queryPlanner.winningPlan` shows it. */
  plan(): Doc {
    return { stage: this.name, ...this.details(), ...this.inputs((child) => child.plan()) };
  }

  /** The stage as `executionStats.executionStages` shows it. */
  execution(): Doc {
    const { works, advanced, needTime, isEOF } = this;
    const counters = { works, advanced, needTime, needYield: 0, saveState: 0, restoreState: 0, isEOF: isEOF ? 1 : 0 };
    const own = { stage: this.name, nReturned: advanced, executionTimeMillisEstimate: 0, ...counters };
    return { ...own, ...this.details(), ...this.counters(), ...this.inputs((child) => child.execution()) };
  }

  private inputs(describe: (child: PlanStage<unknown>) => Doc): Doc {
    const children = this.children();
    if (children.length === 0) return {};
    const merges = this.name === 'OR' || this.name === 'SORT_MERGE';
    if (children.length === 1 && !merges) return { inputStage: describe(children[0]) };
    return { inputStages: children.map(describe) };
  }

  /** Keys and documents read by the plan (explain's totals). */
  totals(): { keys: number; docs: number } {
    const own = this.examined();
    return this.children().reduce((sum, child) => {
      const totals = child.totals();
      return { keys: sum.keys + totals.keys, docs: sum.docs + totals.docs };
    }, own);
  }

  protected examined(): { keys: number; docs: number } {
    return { keys: 0, docs: 0 };
  }
}

/** Pulls one step from a child, passing NEED_TIME through; undefined at the child's end. */
function* pull<T>(child: PlanStage<T>): Generator<typeof NEED_TIME, T | undefined> {
  for (;;) {
    const step = child.work();
    if (step !== NEED_TIME) return step;
    yield NEED_TIME;
  }
}

/** A stage reading one input stage (explain's `inputStage`). */
abstract class OneInputStage<T, Input> extends PlanStage<T> {
  constructor(protected readonly child: PlanStage<Input>) {
    super();
  }

  protected override children(): PlanStage<unknown>[] {
    return [this.child];
  }
}

export class CollectionScan extends PlanStage<Doc> {
  readonly name = 'COLLSCAN';
  docsExamined = 0;

  constructor(
    private readonly collection: Collection,
    private readonly forward: boolean,
    private readonly filter: Doc,
    private readonly matches?: (doc: Doc) => boolean,
  ) {
    super();
  }

  protected *produce(): Generator<Step<Doc>> {
    // A Map iterates live (entries added later are visited, removed ones skipped): fine for a suspended scan.
    // Backward, the scan walks a reversed copy of the document list taken when it starts.
    const docs = this.forward ? this.collection.docs.values() : [...this.collection.docs.values()].reverse();
    for (const doc of docs) {
      this.docsExamined++;
      yield !this.matches || this.matches(doc) ? doc : NEED_TIME;
    }
  }

  protected details(): Doc {
    const filter = Object.keys(this.filter).length ? { filter: this.filter } : {};
    return { ...filter, direction: this.forward ? 'forward' : 'backward' };
  }

  protected override counters(): Doc {
    return { docsExamined: this.docsExamined };
  }

  protected override examined(): { keys: number; docs: number } {
    return { keys: 0, docs: this.docsExamined };
  }
}

/** The document ids a stage has passed on, so each document comes out once; counted as explain shows it. */
class DuplicateIds {
  private readonly seen = new Set<string>();
  private tested = 0;
  private dropped = 0;

  /** True the first time an id is offered, false (a dropped duplicate) after. */
  isFirst(id: string): boolean {
    this.tested++;
    if (this.seen.has(id)) {
      this.dropped++;
      return false;
    }
    this.seen.add(id);
    return true;
  }

  counters(): Doc {
    return { dupsTested: this.tested, dupsDropped: this.dropped };
  }
}

/** Index entries within the bounds, in index order (forward) or reversed; each document once. */
export class IndexScan extends PlanStage<Entry> {
  keysExamined = 0;
  private readonly dups = new DuplicateIds();
  readonly ranges: KeyRange[];
  /** Per key field, the intervals still to check key by key (fields after those the ranges bound). */
  private readonly trailing: Array<Interval[] | undefined>;

  /**
   * `COUNT_SCAN` when only the keys are counted (exact bounds), as MongoDB names that scan. `ranges` are the bounds'
   * key ranges in scan order when the caller has worked them out already.
   */
  constructor(
    private readonly collection: Collection,
    readonly index: Index,
    readonly bounds: KeyBounds,
    readonly forward: boolean,
    readonly name: 'IXSCAN' | 'COUNT_SCAN' = 'IXSCAN',
    ranges?: KeyRange[],
  ) {
    super();
    this.ranges = ranges ?? keyRanges(index, bounds, forward);
    const bounded = (this.ranges[0]?.prefix.length ?? 0) + 1;
    this.trailing = bounds.map((intervals, i) => (i >= bounded && !intervals.every(isFull) ? intervals : undefined));
  }

  protected *produce(): Generator<Step<Entry>> {
    // Only a multikey index holds several entries of one document.
    const multiKey = this.index.multiKey;
    for (const range of this.ranges) {
      for (const entry of this.index.entriesIn(range, this.forward)) {
        this.checkIndexed();
        this.keysExamined++;
        const wanted = this.trailingFieldsMatch(entry.key) && (!multiKey || this.dups.isFirst(entry.id));
        yield wanted ? entry : NEED_TIME;
      }
    }
  }

  /**
   * Every key the scan would pass on, counted at once by the index (`Index.countIn`) when nothing is checked key by
   * key: what a count over exact bounds asks (`CountStage`). Explain's counters end as a run through `work()` leaves
   * them. Undefined when the scan has started or checks trailing fields.
   */
  countAll(): number | undefined {
    if (this.works > 0 || this.trailing.some((intervals) => intervals !== undefined)) return undefined;
    const multiKey = this.index.multiKey;
    let keys = 0;
    let passed = 0;
    for (const range of this.ranges) {
      if (!multiKey) keys += this.index.countIn(range);
      else keys += this.index.countIn(range, (id) => void (this.dups.isFirst(id) && passed++));
    }
    if (!multiKey) passed = keys;
    this.keysExamined = keys;
    this.works = keys + 1;
    this.advanced = passed;
    this.needTime = keys - passed;
    this.isEOF = true;
    return passed;
  }

  /** A cursor cannot go on reading an index dropped since it started (its entries are no longer maintained). */
  private checkIndexed(): void {
    if (this.collection.indexes.get(this.index.name) !== this.index) {
      throw new MongoError('QueryPlanKilled', `query plan killed :: caused by :: index '${this.index.name}' dropped`);
    }
  }

  /** Fields after the range's own are checked key by key (MongoDB skips ahead instead). */
  private trailingFieldsMatch(key: unknown[]): boolean {
    return this.trailing.every((intervals, i) => !intervals || inIntervals(key[i], intervals));
  }

  protected details(): Doc {
    const { spec } = this.index;
    return {
      keyPattern: spec.key,
      indexName: spec.name,
      isMultiKey: this.index.multiKey,
      multiKeyPaths: this.index.multiKeyPaths(),
      isUnique: !!spec.unique || spec.name === '_id_',
      isSparse: !!spec.sparse,
      isPartial: !!spec.partialFilterExpression,
      indexVersion: 2,
      direction: this.forward ? 'forward' : 'backward',
      indexBounds: formatBounds(this.index, this.bounds, this.forward),
    };
  }

  protected override counters(): Doc {
    return { keysExamined: this.keysExamined, seeks: this.ranges.length, ...this.dups.counters() };
  }

  protected override examined(): { keys: number; docs: number } {
    return { keys: this.keysExamined, docs: 0 };
  }
}

/** Entries of several scans, each document once (an `$or` over indexes). */
export class OrStage extends PlanStage<Entry> {
  readonly name = 'OR';
  private readonly dups = new DuplicateIds();

  constructor(private readonly branches: PlanStage<Entry>[]) {
    super();
  }

  protected *produce(): Generator<Step<Entry>> {
    for (const branch of this.branches) {
      for (;;) {
        const entry = yield* pull(branch);
        if (entry === undefined) break;
        yield this.dups.isFirst(entry.id) ? entry : NEED_TIME;
      }
    }
  }

  protected details(): Doc {
    return {};
  }

  protected override children(): PlanStage<unknown>[] {
    return this.branches;
  }

  protected override counters(): Doc {
    return this.dups.counters();
  }
}

/**
 * Entries of several scans each in sort order, merged into one sorted stream (MongoDB's SORT_MERGE): an
 * `$in` before the sort fields needs no blocking sort, and a limit stops every scan early.
 */
export class MergeSortStage extends PlanStage<Entry> {
  readonly name = 'SORT_MERGE';
  private readonly dups = new DuplicateIds();

  constructor(
    private readonly scans: PlanStage<Entry>[],
    private readonly pattern: Doc,
    private readonly compare: (a: Entry, b: Entry) => number,
  ) {
    super();
  }

  protected *produce(): Generator<Step<Entry>> {
    const heads: Array<Entry | undefined> = [];
    for (const scan of this.scans) heads.push(yield* pull(scan));
    for (;;) {
      const next = this.smallest(heads);
      if (next < 0) return;
      const entry = heads[next] as Entry;
      heads[next] = yield* pull(this.scans[next]);
      yield this.dups.isFirst(entry.id) ? entry : NEED_TIME;
    }
  }

  /** Index of the head that comes first in sort order, -1 when every scan is done. */
  private smallest(heads: Array<Entry | undefined>): number {
    let best = -1;
    heads.forEach((head, i) => {
      if (head && (best < 0 || this.compare(head, heads[best] as Entry) < 0)) best = i;
    });
    return best;
  }

  protected details(): Doc {
    return { sortPattern: this.pattern };
  }

  protected override children(): PlanStage<unknown>[] {
    return this.scans;
  }

  protected override counters(): Doc {
    return this.dups.counters();
  }
}

/** Documents of the entries, re-checked with the filter unless the bounds are exact. */
export class FetchStage extends OneInputStage<Doc, Entry> {
  readonly name = 'FETCH';
  docsExamined = 0;

  constructor(
    private readonly collection: Collection,
    child: PlanStage<Entry>,
    private readonly filter: Doc | undefined,
    private readonly matches?: (doc: Doc) => boolean,
  ) {
    super(child);
  }

  protected *produce(): Generator<Step<Doc>> {
    for (;;) {
      const entry = yield* pull(this.child);
      if (entry === undefined) return;
      // Re-fetched by id: a document removed or replaced since the scan started is seen as it is now.
      const doc = this.collection.get(entry.id);
      if (doc) this.docsExamined++;
      yield doc && (!this.matches || this.matches(doc)) ? doc : NEED_TIME;
    }
  }

  protected details(): Doc {
    return this.filter && Object.keys(this.filter).length ? { filter: this.filter } : {};
  }

  protected override counters(): Doc {
    return { docsExamined: this.docsExamined };
  }

  protected override examined(): { keys: number; docs: number } {
    return { keys: 0, docs: this.docsExamined };
  }
}

/** MongoDB's internalQueryMaxBlockingSortMemoryUsageBytes, shown by explain (not enforced). */
const SORT_MEMORY_LIMIT = 100 * 1024 * 1024;

/**
 * A blocking sort: reads its whole input, then returns it in order. With a limit it keeps only the best
 * `limit` documents (top-k: the buffer is sorted and cut whenever it reaches twice the limit).
 */
export class SortStage extends OneInputStage<Doc, Doc> {
  readonly name = 'SORT';

  constructor(
    child: PlanStage<Doc>,
    private readonly pattern: Doc,
    private readonly limit: number,
    private readonly sortDocs: (docs: Doc[]) => Doc[],
  ) {
    super(child);
  }

  protected *produce(): Generator<Step<Doc>> {
    let buffer: Doc[] = [];
    for (;;) {
      const doc = yield* pull(this.child);
      if (doc === undefined) break;
      buffer.push(doc);
      if (this.limit > 0 && buffer.length >= 2 * this.limit) buffer = this.sortDocs(buffer).slice(0, this.limit);
      yield NEED_TIME;
    }
    buffer = this.sortDocs(buffer);
    yield* this.limit > 0 ? buffer.slice(0, this.limit) : buffer;
  }

  protected details(): Doc {
    const limit = this.limit > 0 ? { limitAmount: this.limit } : {};
    return { sortPattern: this.pattern, memLimit: SORT_MEMORY_LIMIT, ...limit, type: 'simple' };
  }
}

export class SkipStage extends OneInputStage<Doc, Doc> {
  readonly name = 'SKIP';

  constructor(
    child: PlanStage<Doc>,
    private readonly skip: number,
  ) {
    super(child);
  }

  protected *produce(): Generator<Step<Doc>> {
    let skipped = 0;
    for (;;) {
      const doc = yield* pull(this.child);
      if (doc === undefined) return;
      yield skipped++ < this.skip ? NEED_TIME : doc;
    }
  }

  protected details(): Doc {
    return { skipAmount: this.skip };
  }
}

/** Stops its input after `limit` results: nothing more is read from the index or the collection. */
export class LimitStage extends OneInputStage<Doc, Doc> {
  readonly name = 'LIMIT';

  constructor(
    child: PlanStage<Doc>,
    private readonly limit: number,
  ) {
    super(child);
  }

  protected *produce(): Generator<Step<Doc>> {
    for (let returned = 0; returned < this.limit;) {
      const doc = yield* pull(this.child);
      if (doc === undefined) return;
      returned++;
      yield doc;
    }
  }

  protected details(): Doc {
    return { limitAmount: this.limit };
  }
}

/** Counts its input's results (MongoDB's COUNT); `skip` and `limit` apply to the count. Returns one number. */
export class CountStage extends OneInputStage<number, unknown> {
  readonly name = 'COUNT';

  constructor(
    child: PlanStage<unknown>,
    private readonly skip: number,
    private readonly limit: number,
  ) {
    super(child);
  }

  protected *produce(): Generator<Step<number>> {
    const counted = this.child instanceof IndexScan ? this.child.countAll() : undefined;
    let count = counted ?? 0;
    if (counted !== undefined) {
      // Counted at once: this stage's counters as if it had taken each key in turn (one step each).
      const steps = (this.child as IndexScan).keysExamined;
      this.works += steps;
      this.needTime += steps;
    } else {
      for (;;) {
        const result = yield* pull(this.child);
        if (result === undefined) break;
        count++;
        yield NEED_TIME;
      }
    }
    const skipped = Math.max(0, count - this.skip);
    yield this.limit > 0 ? Math.min(skipped, this.limit) : skipped;
  }

  protected details(): Doc {
    return {};
  }
}

/**
 * MongoDB's IDHACK: the document whose `_id` equals one value, read straight from the `_id` index (the documents'
 * map is keyed by the canonical `_id`), with no candidate plans, trial or compiled filter.
 */
export class IdHackStage extends PlanStage<Doc> {
  readonly name = 'IDHACK';
  private found = 0;

  constructor(
    private readonly collection: Collection,
    private readonly id: string,
  ) {
    super();
  }

  protected *produce(): Generator<Step<Doc>> {
    const doc = this.collection.get(this.id);
    if (!doc) return;
    this.found = 1;
    yield doc;
  }

  protected details(): Doc {
    return {};
  }

  protected override counters(): Doc {
    return { keysExamined: this.found, docsExamined: this.found };
  }

  protected override examined(): { keys: number; docs: number } {
    return { keys: this.found, docs: this.found };
  }
}

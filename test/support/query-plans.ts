import { CommandStartedEvent, Db, Document, MongoClient } from 'mongodb';

/** A read or write the app sent, with what it was sent for (`bean.function`, or `(background)`). */
export interface RecordedQuery {
  caller: string;
  collection: string;
  /** The command to explain: find, aggregate, count, distinct, findAndModify, or one statement of update/delete. */
  command: Document;
}

/** A recorded query with the winning plan the database chose for it. */
export interface PlannedQuery extends RecordedQuery {
  /** Stages of the winning plan, outermost first, e.g. `FETCH > IXSCAN seller_1` or `COLLSCAN`. */
  plan: string;
  collectionScan: boolean;
}

const EXPLAINABLE = new Set(['find', 'aggregate', 'count', 'distinct', 'update', 'delete', 'findAndModify']);

/** The fields of each command that shape its plan (session, write concern and the like are left out). */
const PLAN_FIELDS: Record<string, string[]> = {
  find: ['filter', 'sort', 'projection', 'hint', 'skip', 'limit', 'collation'],
  aggregate: ['pipeline', 'hint', 'collation'],
  count: ['query', 'hint', 'limit', 'skip', 'collation'],
  distinct: ['key', 'query', 'collation'],
  findAndModify: ['query', 'sort', 'update', 'remove', 'upsert', 'new', 'fields', 'hint', 'collation'],
};

/**
 * Records the queries an app sends through its driver (command monitoring, `monitorCommands=true` in the URI),
 * each attributed to the bean call under way: callers run one at a time through {@link during}.
 */
export class QueryRecorder {
  readonly queries: RecordedQuery[] = [];
  private caller = '(background)';

  constructor(client: MongoClient) {
    client.on('commandStarted', (event) => this.record(event));
  }

  /** Runs `action`, attributing the queries sent meanwhile to `caller`. */
  async during<T>(caller: string, action: () => PromiseLike<T>): Promise<T> {
    this.caller = caller;
    try {
      return await action();
    } finally {
      this.caller = '(background)';
    }
  }

  private record(event: CommandStartedEvent): void {
    const name = event.commandName;
    if (!EXPLAINABLE.has(name) || isMetadataCount(event.command)) return;
    const collection = String(event.command[name]);
    for (const command of explainableParts(name, event.command)) {
      this.queries.push({ caller: this.caller, collection, command });
    }
    for (const counted of unionCounts(name, event.command)) this.queries.push({ caller: this.caller, ...counted });
  }
}

/**
 * A `count` without a query (`estimatedDocumentCount`) is answered from the collection's metadata by MongoDB
 * (plan `RECORD_STORE_FAST_COUNT`): nothing to plan.
 */
function isMetadataCount(command: Document): boolean {
  const query = command.query as Document | undefined;
  return command.count !== undefined && (query === undefined || Object.keys(query).length === 0);
}

/** One command per statement for update and delete (each statement has its own plan). */
function explainableParts(name: string, sent: Document): Document[] {
  if (name === 'update' || name === 'delete') {
    const statements = (sent[name === 'update' ? 'updates' : 'deletes'] ?? []) as Document[];
    return statements.map((statement) => ({ [name]: sent[name], [`${name}s`]: [statement] }));
  }
  const command: Document = { [name]: sent[name] };
  for (const field of PLAN_FIELDS[name]) if (sent[field] !== undefined) command[field] = sent[field];
  if (name === 'aggregate') command.cursor = {};
  return [command];
}

/**
 * The counts an aggregate appends with `$unionWith` (a `$match` and a `$count`, a page's total): each planned as the
 * `count` command it is counted as.
 */
function unionCounts(name: string, sent: Document): { collection: string; command: Document }[] {
  if (name !== 'aggregate') return [];
  return ((sent.pipeline ?? []) as Document[]).flatMap((stage) => {
    const union = stage.$unionWith as Document | undefined;
    const [match, count] = (union?.pipeline ?? []) as Document[];
    if (typeof union?.coll !== 'string' || !match?.$match || !count?.$count) return [];
    return [{ collection: union.coll, command: { count: union.coll, query: match.$match as Document } }];
  });
}

/** Explains each distinct query (same caller, collection and shape) once, at `queryPlanner` verbosity. */
export async function planAll(db: Db, queries: RecordedQuery[]): Promise<PlannedQuery[]> {
  const keyOf = (query: RecordedQuery) => `${query.caller} ${query.collection} ${shape(query.command)}`;
  const distinct = new Map(queries.map((query) => [keyOf(query), query]));
  const planned: PlannedQuery[] = [];
  for (const query of distinct.values()) {
    const explained = await db.command({ explain: query.command, verbosity: 'queryPlanner' });
    const stages = planStages(winningPlan(explained));
    planned.push({ ...query, plan: stages.join(' > '), collectionScan: stages.some((s) => s.startsWith('COLLSCAN')) });
  }
  return planned;
}

/** The winning plan of an explain: top level (find, or an aggregate run as one query) or the first `$cursor`. */
function winningPlan(explained: Document): Document {
  const cursor = (explained.stages as Document[] | undefined)?.[0]?.$cursor as Document | undefined;
  const planner = (explained.queryPlanner ?? cursor?.queryPlanner) as Document | undefined;
  if (!planner?.winningPlan) throw new Error(`No winning plan in ${JSON.stringify(explained)}`);
  return planner.winningPlan as Document;
}

/**
 * The stages of a plan tree, outermost first, walked generically through `queryPlan`, `inputStage` and
 * `inputStages` (compound, OR and union plans included); index scans name their index, and `backward` after it
 * when they read it in reverse.
 */
export function planStages(plan: Document): string[] {
  const stages: string[] = [];
  const visit = (node: Document | undefined): void => {
    if (!node) return;
    if (typeof node.stage === 'string') stages.push([node.stage, node.indexName, backward(node)].join(' ').trim());
    visit(node.queryPlan as Document | undefined);
    visit(node.inputStage as Document | undefined);
    for (const input of (node.inputStages as Document[] | undefined) ?? []) visit(input);
  };
  visit(plan);
  return stages;
}

const backward = (node: Document): string => (node.direction === 'backward' ? 'backward' : '');

/**
 * A query's shape: its JSON with every value replaced, so that calls differing only in ids or values count once; a
 * find's sort is kept whole (its directions choose the index's scan direction).
 */
function shape(command: Document): string {
  const values = JSON.stringify(command).replace(
    /"(?:[^"\\]|\\.)*"(?!:)|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null/g,
    '?',
  );
  return `${values} ${JSON.stringify(sortOf(command) ?? null)}`;
}

/** A find's sort as a document (the driver sends it as a `Map`, which JSON shows as `{}`). */
export function sortOf(command: Document): Record<string, unknown> | undefined {
  const sort = command.sort as Map<string, unknown> | Document | undefined;
  return sort instanceof Map ? Object.fromEntries(sort) : sort;
}

/** A `$lookup` an aggregate runs: which collection it joins and on which of its fields. */
export interface Join {
  caller: string;
  from: string;
  foreignField: string;
  /** The indexes of `from` whose first key is `foreignField` (`_id_` for `_id`). */
  indexes: string[];
}

/** The equality `$lookup`s (`localField`/`foreignField`) of the recorded aggregates, with the indexes serving them. */
export async function joinsOf(db: Db, queries: RecordedQuery[]): Promise<Join[]> {
  const joins = new Map<string, Join>();
  for (const query of queries) {
    for (const stage of (query.command.pipeline ?? []) as Document[]) {
      const lookup = stage.$lookup as Document | undefined;
      if (!lookup?.foreignField) continue;
      const [from, foreignField] = [String(lookup.from), String(lookup.foreignField)];
      joins.set(`${query.caller} ${from} ${foreignField}`, { caller: query.caller, from, foreignField, indexes: [] });
    }
  }
  for (const join of joins.values()) {
    const indexes = await db.collection(join.from).listIndexes().toArray();
    const leading = indexes.filter((index) => Object.keys(index.key as Document)[0] === join.foreignField);
    join.indexes = leading.map((index) => String(index.name));
  }
  return [...joins.values()];
}

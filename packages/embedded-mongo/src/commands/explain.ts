import { createHash } from 'node:crypto';
import os from 'node:os';
import { MongoError } from '../errors';
import { execute, type QueryPlan } from '../indexes/planner';
import { findMatches, planCountRead, planRead } from '../ops/match';
import type { MatchOptions, ReadSource } from '../ops/match-options';
import { pushedDown } from '../ops/pushed-down';
import { searchPlan } from '../ops/search-match';
import type { QueryEnv } from '../query/mingo-options';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import type { CommandContext, CommandTable } from './context';
import { commandEnv } from './env';
import { SERVER_VERSION } from './handshake';
import { readSource } from './read-source';

const VERBOSITIES = ['queryPlanner', 'executionStats', 'allPlansExecution'];

/** The filter each explainable command runs its read with. */
function filterOf(name: string, inner: Doc): Doc {
  const pick = (value: unknown): Doc => (isDoc(value) ? value : {});
  switch (name) {
    case 'find':
      return pick(inner.filter);
    case 'aggregate':
      return pick((inner.pipeline as Doc[] | undefined)?.[0]?.$match);
    case 'update':
      return pick((inner.updates as Doc[] | undefined)?.[0]?.q);
    case 'delete':
      return pick((inner.deletes as Doc[] | undefined)?.[0]?.q);
    case 'count':
    case 'distinct':
    case 'findAndModify':
      return pick(inner.query);
  }
  throw new MongoError('CommandNotFound', `Explain failed due to unknown command: ${name}`);
}

/** The options the explained command reads with (sort, skip, limit, projection, hint, min/max). */
function readOptions(name: string, inner: Doc): MatchOptions {
  const first = (field: string): Doc => (inner[field] as Doc[] | undefined)?.[0] ?? {};
  switch (name) {
    case 'find':
      return {
        sort: inner.sort as Doc | undefined,
        skip: Number(inner.skip ?? 0),
        limit: Number(inner.limit ?? 0),
        projection: inner.projection as Doc | undefined,
        hint: inner.hint,
        bounds: { min: inner.min as Doc | undefined, max: inner.max as Doc | undefined },
      };
    case 'count':
      return { skip: Number(inner.skip ?? 0), limit: Number(inner.limit ?? 0), hint: inner.hint };
    case 'update':
      return { hint: first('updates').hint, limit: first('updates').multi ? 0 : 1 };
    case 'delete':
      return { hint: first('deletes').hint, limit: Number(first('deletes').limit ?? 0) };
    case 'findAndModify':
      return { sort: inner.sort as Doc | undefined, limit: 1, hint: inner.hint };
    case 'aggregate': {
      // The stages the aggregate reads with its leading `$match` (`pushedDown`).
      const pipeline = (inner.pipeline as Doc[] | undefined) ?? [];
      const pushed = isDoc(pipeline[0]?.$match) ? pushedDown(pipeline.slice(1)).options : {};
      return { ...pushed, hint: inner.hint };
    }
  }
  return { hint: inner.hint };
}

/** The plan the command would run; the write itself is never applied. */
function planOf(name: string, collection: Collection, filter: Doc, inner: Doc, env: QueryEnv): QueryPlan<unknown> {
  const options = readOptions(name, inner);
  if (name === 'count') return planCountRead(collection, filter, env, options);
  return planRead(collection, filter, env, options);
}

function withProjection(plan: Doc, projection: unknown): Doc {
  if (!isDoc(projection) || Object.keys(projection).length === 0) return plan;
  return { stage: 'PROJECTION_DEFAULT', transformBy: projection, inputStage: plan };
}

/** Runs the winning plan to the end and reports what it read, stage by stage. */
function executionStats(plan: QueryPlan<unknown>, started: number): Doc {
  let returned = 0;
  for (const result of execute(plan)) returned += typeof result === 'number' ? 0 : 1;
  const totals = plan.root.totals();
  return {
    executionSuccess: true,
    nReturned: plan.root.name === 'COUNT' ? 0 : returned,
    executionTimeMillis: Date.now() - started,
    totalKeysExamined: totals.keys,
    totalDocsExamined: totals.docs,
    executionStages: plan.root.execution(),
  };
}

const NOTHING_READ = { stage: 'EOF' };

/** Text and geo reads report what they returned; their index scans count no keys (not measured). */
function searchStats(search: Doc, source: ReadSource, filter: Doc, env: QueryEnv, started: number): Doc {
  const returned = findMatches(source, filter, env).length;
  const totals = { nReturned: returned, executionTimeMillis: Date.now() - started };
  return { executionSuccess: true, ...totals, executionStages: search };
}

/** MongoDB's 8-hex-digit hashes of a query shape (queryHash, planCacheKey). */
function shapeHash(shape: string): string {
  return createHash('sha256').update(shape).digest('hex').slice(0, 8).toUpperCase();
}

/** A missing collection or a view: nothing is read through a plan. */
function emptyStats(): Doc {
  const totals = { nReturned: 0, executionTimeMillis: 0, totalKeysExamined: 0, totalDocsExamined: 0 };
  return { executionSuccess: true, ...totals, executionStages: NOTHING_READ };
}

function explain(command: Doc, context: CommandContext): Doc {
  const inner = command.explain;
  if (!isDoc(inner)) throw new MongoError('BadValue', 'explain command requires a nested object');
  const verbosity = String(command.verbosity ?? 'allPlansExecution');
  if (!VERBOSITIES.includes(verbosity))
    throw new MongoError('FailedToParse', `verbosity string must be one of {${VERBOSITIES.join(', ')}}`);
  const name = Object.keys(inner)[0] ?? '';
  const filter = filterOf(name, inner);
  const source = readSource(context, String(inner[name]));
  const started = Date.now();
  const env = commandEnv(context, inner, inner[name]);
  // Text and geo filters are planned through their own indexes (src/ops/search-match.ts).
  const search = searchPlan(source, filter);
  const plan = !search && source && !Array.isArray(source) ? planOf(name, source, filter, inner, env) : undefined;
  const projection = name === 'find' ? inner.projection : undefined;
  const namespace = `${context.db}.${String(inner[name])}`;
  const queryPlanner = {
    namespace,
    indexFilterSet: false,
    parsedQuery: filter,
    maxIndexedOrSolutionsReached: false,
    maxIndexedAndSolutionsReached: false,
    maxScansToExplodeReached: false,
    ...(plan ? { queryHash: shapeHash(plan.shape), planCacheKey: shapeHash(`${plan.shape}|${namespace}`) } : {}),
    planCacheUsed: plan?.fromCache ?? false,
    winningPlan: search ?? (plan ? withProjection(plan.root.plan(), projection) : NOTHING_READ),
    rejectedPlans: plan?.rejected.map((rejected) => rejected.plan()) ?? [],
  };
  const stats =
    verbosity === 'queryPlanner'
      ? undefined
      : search
        ? searchStats(search, source, filter, env, started)
        : plan && executionStats(plan, started);
  if (plan && stats && verbosity === 'allPlansExecution') {
    stats.allPlansExecution = [plan.root, ...plan.rejected].map((stage) => stage.execution());
  }
  return {
    explainVersion: '1',
    queryPlanner,
    ...(verbosity === 'queryPlanner' ? {} : { executionStats: stats ?? emptyStats() }),
    command: { ...inner, $db: context.db },
    serverInfo: { host: os.hostname(), port: 0, version: SERVER_VERSION, gitVersion: 'embedded' },
  };
}

export const explainCommands: CommandTable = { explain };

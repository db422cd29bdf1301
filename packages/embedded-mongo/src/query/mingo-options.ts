import { Context, evalExpr } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as booleanOperators from 'mingo/operators/expression/boolean';
import * as comparisonOperators from 'mingo/operators/expression/comparison';
import type { $set } from 'mingo/operators/update';
import { $toString } from './bson-conversions';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import type { CollationSpec, Options } from 'mingo/types';
import { isDoc, type Doc } from '../types';
import { $bsonType } from './bson-type';
import { collationOperators, intlLocale } from './collation';
import { rewriteFilter } from './filter-rewrite';
import { jsonSchemaValidator } from './json-schema';
import { geoQueryOperators } from '../geo/geo-operators';
import { projectionOverrides } from './projection-operators';
import { arrayBitOperators } from './array-bit-operators';
import { numericOperators } from './numeric-operators';
import { $add, $avg, $max, $min, $sum } from './decimal-accumulators';
import { $where } from './where-operator';

/** Per-command inputs that change query/aggregation semantics. */
export interface QueryEnv {
  collation?: Doc;
  /** `let` variables of the command. */
  variables?: Doc;
  /**
   * What aggregation pipelines run with: mingo's context with this server's stages, and the other collections of
   * the same database that `$lookup`, `$unionWith` and `$graphLookup` read (their `ForeignResolver`, opaque here).
   * Assembled above ops/ (`commands/pipeline-env.ts`): the stages use ops/, which imports this file.
   */
  pipeline?: { context: Context; foreign: unknown };
}

/** mingo's operator tables by kind (accumulator, expression, pipeline, …), as a context is made of them. */
export type OperatorTables = NonNullable<Parameters<typeof Context.init>[0]>;

const OUR_QUERY_OPERATORS = {
  ...numericOperators,
  ...collationOperators,
  $bsonType,
  ...geoQueryOperators,
  ...arrayBitOperators,
  $where,
};

/**
 * mingo copies the operator tables of the context on every query, update and pipeline it compiles from plain
 * options, so contexts are built once and kept as small as the work allows: the pipeline one (with the stages,
 * `commands/pipeline-env.ts`), one for expressions, a query-only one for plain filters, and the updater's (what
 * mingo's `updateMany` would add to ours on every call: its query operators and the boolean and comparison
 * expressions). This dominated the latency of single-document commands. From compiled options (`compileOptions`)
 * mingo copies nothing.
 */
export const EXPRESSION_OPERATORS: Omit<OperatorTables, 'pipeline'> = {
  accumulator: { ...accumulatorOperators, $sum, $avg, $min, $max },
  expression: { ...expressionOperators, $toString, $add },
  projection: { ...projectionOperators, ...projectionOverrides },
  query: { ...queryOperators, ...OUR_QUERY_OPERATORS },
  window: windowOperators,
};
/** Filters, projections and expressions outside a pipeline: mingo looks pipeline stages up only in an Aggregator. */
const EXPRESSION_CONTEXT = Context.init(EXPRESSION_OPERATORS);
const QUERY_CONTEXT = Context.init({ projection: EXPRESSION_OPERATORS.projection, query: EXPRESSION_OPERATORS.query });
const UPDATER_CONTEXT = Context.init({
  query: EXPRESSION_OPERATORS.query,
  expression: { ...booleanOperators, ...comparisonOperators },
});

/** mingo's compiled options: what its operators receive, and what it compiles queries from without copying. */
export type ComputeOptions = NonNullable<Parameters<typeof $set>[2]>;

/** mingo exports no constructor of its compiled options; an expression operator receives an instance. */
const COMPUTE_OPTIONS = ((): { init(options: Partial<Options>): ComputeOptions } => {
  let received: unknown;
  const $probe = (_obj: unknown, _expr: unknown, options: unknown): null => {
    received = options;
    return null;
  };
  const context = Context.init({ expression: { $probe } });
  evalExpr({}, { $probe: 1 }, { context } as Options);
  return (received as object).constructor as unknown as { init(options: Partial<Options>): ComputeOptions };
})();

/**
 * Compiled options: from plain ones, with one copy of the context's tables; from compiled ones, a copy that shares
 * their tables and has its own locals (the clock of `$$NOW` and `$currentDate`, the update's condition).
 */
export function compileOptions(options: Partial<Options>): ComputeOptions {
  return COMPUTE_OPTIONS.init(options);
}

/** The compiled options of each context made here: its tables copied once (`compileForRun`). */
const compiledContexts = new WeakMap<object, ComputeOptions>();

/**
 * Compiled options for one run of `options` (a command's pipeline: its collation, variables and look-up resolver)
 * whose context's operator tables are those copied once for every run, where mingo's `init` copies them from plain
 * options on each (profiled: about 80 µs per aggregate, the hundreds of expression operators included). mingo shares
 * a compiled context between the options it derives from it the same way; nothing here adds operators to a context
 * after it is made.
 */
export function compileForRun(options: Partial<Options>): ComputeOptions {
  const context = options.context ?? EXPRESSION_CONTEXT;
  let compiled = compiledContexts.get(context);
  if (!compiled) {
    compiled = compileOptions({ context });
    compiledContexts.set(context, compiled);
  }
  const Compiled = COMPUTE_OPTIONS as unknown as new (options: Options) => ComputeOptions;
  return new Compiled({ ...compiled.options, ...options, context: compiled.options.context });
}

/** Query operators that evaluate aggregation expressions, and projection operators that do not. */
const EXPRESSION_QUERY_OPERATORS = new Set(['$expr', '$where', '$jsonSchema', '$function']);
const PLAIN_PROJECTION_OPERATORS = new Set(['$slice', '$elemMatch']);

export function mentions(value: unknown, isExpressionKey: (key: string) => boolean): boolean {
  if (Array.isArray(value)) return value.some((item) => mentions(item, isExpressionKey));
  if (!isDoc(value)) return false;
  return Object.entries(value).some(([key, item]) => isExpressionKey(key) || mentions(item, isExpressionKey));
}

export function toCollation(collation: Doc | undefined): CollationSpec | undefined {
  if (!collation || collation.locale === undefined || collation.locale === 'simple') return undefined;
  return { ...collation, locale: intlLocale(String(collation.locale)) };
}

export function mingoOptions(env: QueryEnv = {}): Partial<Options> {
  return {
    idKey: '_id',
    useStrictMode: true,
    context: env.pipeline?.context ?? EXPRESSION_CONTEXT,
    collation: toCollation(env.collation),
    variables: env.variables,
    // Read by our $lookup/$graphLookup/$unionWith (mingo passes unknown options through).
    ...({ foreign: env.pipeline?.foreign } as Partial<Options>),
    jsonSchemaValidator,
  };
}

/** A command's `let` values are expressions (operators, `$$NOW`…), evaluated once per command. */
export function evaluateVariables(variables: unknown): Doc | undefined {
  if (!isDoc(variables)) return undefined;
  const options = mingoOptions() as Options;
  return Object.fromEntries(Object.entries(variables).map(([name, expr]) => [name, evalExpr({}, expr, options)]));
}

/** Whether the command's options are the defaults: no collation, no `let` variables (most commands). */
export function hasDefaultOptions(env: QueryEnv): boolean {
  return toCollation(env.collation) === undefined && env.variables === undefined;
}

/** Plain filters' options for commands with the default options, compiled once. */
const DEFAULT_FILTER_OPTIONS = compileOptions({ ...mingoOptions(), context: QUERY_CONTEXT });

/**
 * Whether `options` are the shared ones of plain filters of commands with the default options (`filterOptions`): a
 * filter compiled with them compiles the same for every command.
 */
export function isSharedFilterOptions(options: Partial<Options>): boolean {
  return options === DEFAULT_FILTER_OPTIONS;
}

/** Options for a filter (and projection): the small query context unless they use expressions. */
export function filterOptions(env: QueryEnv, filter: Doc, projection?: Doc): Partial<Options> {
  const expressions =
    mentions(filter, (key) => EXPRESSION_QUERY_OPERATORS.has(key)) ||
    mentions(projection, (key) => key.startsWith('$') && !PLAIN_PROJECTION_OPERATORS.has(key));
  if (expressions) return mingoOptions(env);
  return hasDefaultOptions(env) ? DEFAULT_FILTER_OPTIONS : { ...mingoOptions(env), context: QUERY_CONTEXT };
}

export function updaterOptions(env: QueryEnv = {}): Partial<Options> {
  return { ...mingoOptions(env), context: UPDATER_CONTEXT };
}

/** The filter as mingo should evaluate it under the command's collation. */
export function effectiveFilter(filter: Doc, env: QueryEnv): Doc {
  return rewriteFilter(filter, toCollation(env.collation) !== undefined);
}

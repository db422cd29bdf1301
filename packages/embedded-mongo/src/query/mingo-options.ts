import { Context } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import type { CollationSpec, Options } from 'mingo/types';
import type { Doc } from '../types';
import { $bsonType } from './bson-type';
import { collationOperators, intlLocale } from './collation';
import { rewriteFilter } from './filter-rewrite';

/** Per-command inputs that change query/aggregation semantics. */
export interface QueryEnv {
  collation?: Doc;
  /** `let` variables of the command. */
  variables?: Doc;
  /** Documents of another collection of the same database ($lookup, $unionWith, $graphLookup). */
  resolve?: (name: string) => Doc[];
}

/**
 * One context with every mingo operator plus ours, built once. (mingo's default entry point merges
 * its operator tables into a new context on every query when a custom context is passed.)
 */
const CONTEXT = Context.init({
  accumulator: accumulatorOperators,
  expression: expressionOperators,
  pipeline: pipelineOperators,
  projection: projectionOperators,
  query: { ...queryOperators, ...collationOperators, $bsonType },
  window: windowOperators,
});

export function toCollation(collation: Doc | undefined): CollationSpec | undefined {
  if (!collation || collation.locale === undefined || collation.locale === 'simple') return undefined;
  return { ...collation, locale: intlLocale(String(collation.locale)) } as unknown as CollationSpec;
}

export function mingoOptions(env: QueryEnv = {}): Partial<Options> {
  return {
    idKey: '_id',
    useStrictMode: true,
    context: CONTEXT,
    collation: toCollation(env.collation),
    variables: env.variables,
    collectionResolver: env.resolve,
  };
}

/** The filter as mingo should evaluate it under the command's collation. */
export function effectiveFilter(filter: Doc, env: QueryEnv): Doc {
  return rewriteFilter(filter, toCollation(env.collation) !== undefined);
}

import { Context } from 'mingo/core';
import * as pipelineOperators from 'mingo/operators/pipeline';
import { ForeignResolver } from '../ops/foreign-source';
import { $graphLookup } from '../ops/graph-lookup-stage';
import { $lookup } from '../ops/lookup-stage';
import type { ReadSource } from '../ops/match-options';
import { $group, $groupKeyOf, $sort } from '../ops/decimal-stages';
import { $facet, $redact, copyOnWriteStages } from '../ops/shared-stages';
import { $unionWith } from '../ops/union-with-stage';
import { EXPRESSION_OPERATORS, type QueryEnv } from '../query/mingo-options';
import type { Doc } from '../types';

/** MongoDB's `$project` puts `_id` first; mingo appends it after the projected fields. */
const $projectIdFirst: typeof pipelineOperators.$project = (collection, expr, options) =>
  copyOnWriteStages.$project(collection, expr as never, options).map((doc) => {
    const projected = doc as Doc;
    return '_id' in projected && Object.keys(projected)[0] !== '_id' ? { _id: projected._id, ...projected } : projected;
  });

/** MongoDB's `$count` outputs nothing for no input (it is a `$group` by null); mingo's outputs a count of 0. */
const $countOfSome: typeof pipelineOperators.$count = (collection, expr, options) =>
  pipelineOperators.$count(collection, expr, options).filter((doc) => (doc as Doc)[expr] !== 0);

/**
 * mingo's operators with this server's stages. Assembled here, above ops/, and not in query/mingo-options.ts: the
 * stages match and look up through ops/, which builds its filters with mingo-options (a 23-file import cycle when
 * mingo-options imported the stages).
 */
const PIPELINE_CONTEXT = Context.init({
  ...EXPRESSION_OPERATORS,
  expression: { ...EXPRESSION_OPERATORS.expression, $groupKeyOf },
  pipeline: {
    ...pipelineOperators,
    ...copyOnWriteStages,
    $project: $projectIdFirst,
    $count: $countOfSome,
    $facet,
    $redact,
    $lookup,
    $graphLookup,
    $unionWith,
    $sort,
    $group,
  },
});

/** `env` with what its pipelines run with: this server's stages, and `read` for the collections they look up. */
export function withPipelines(env: Omit<QueryEnv, 'pipeline'>, read: (name: string) => ReadSource): QueryEnv {
  const full: QueryEnv = { ...env };
  full.pipeline = { context: PIPELINE_CONTEXT, foreign: new ForeignResolver(read, full) };
  return full;
}

import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import { compileForRun, mingoOptions, type QueryEnv } from '../query/mingo-options';
import { keyString } from '../indexes/key-string';
import type { Doc } from '../types';
import { withInheritedTypes } from './result-types';
import { unionsAlone } from './union-with-stage';

/** Stages after which an output `_id` no longer identifies the input document it came from. */
const RESHAPING_STAGES = new Set([
  '$group',
  '$bucket',
  '$bucketAuto',
  '$replaceRoot',
  '$replaceWith',
  '$facet',
  '$count',
  '$sortByCount',
  '$documents',
  '$unionWith',
]);

/** Outputs that still carry their input's `_id` keep the BSON number types of that input. */
function keepNumberTypes(stages: Doc[], docs: Doc[], results: Doc[]): Doc[] {
  if (stages.some((stage) => RESHAPING_STAGES.has(Object.keys(stage)[0]))) return results;
  const unchanged = new Set(docs);
  if (results.every((result) => unchanged.has(result))) return results;
  const inputs = new Map(docs.map((doc) => [keyString([doc._id]), doc]));
  return results.map((result) => {
    if (unchanged.has(result)) return result;
    return withInheritedTypes(inputs.get(keyString([result._id])), result) as Doc;
  });
}

/**
 * Runs an aggregation pipeline over stored documents, shared, never cloned: the stages that would
 * write into their inputs get copies of what they write (see shared-stages.ts).
 */
export function runPipeline(stages: Doc[], docs: Doc[], env: QueryEnv): Doc[] {
  const unioned = unionsAlone(stages, docs, env);
  if (unioned) return unioned;
  const options = compileForRun({ ...mingoOptions(env), processingMode: ProcessingMode.CLONE_OFF });
  const results = new Aggregator(stages, options).run<Doc>(docs);
  return keepNumberTypes(stages, docs, results);
}

import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import { mingoOptions, type QueryEnv } from '../query/mingo-options';
import { inheritNumberTypes } from '../bson/number-types';
import { keyString } from '../indexes/key-string';
import type { Doc } from '../types';

/** Stages after which an output `_id` no longer identifies the input document it came from. */
const RESHAPING_STAGES = new Set(['$group', '$bucket', '$bucketAuto', '$replaceRoot', '$replaceWith', '$facet', '$count', '$sortByCount', '$documents', '$unionWith']);

/** Outputs that still carry their input's `_id` keep the BSON number types of that input. */
function keepNumberTypes(stages: Doc[], docs: Doc[], results: Doc[]): void {
  if (stages.some((stage) => RESHAPING_STAGES.has(Object.keys(stage)[0]))) return;
  const unchanged = new Set(docs);
  const built = results.filter((result) => !unchanged.has(result));
  if (built.length === 0) return;
  const inputs = new Map(docs.map((doc) => [keyString([doc._id]), doc]));
  for (const result of built) inheritNumberTypes(inputs.get(keyString([result._id])), result);
}

/**
 * Runs an aggregation pipeline over stored documents, shared, never cloned: the stages that would
 * write into their inputs get copies of what they write (see shared-stages.ts).
 */
export function runPipeline(stages: Doc[], docs: Doc[], env: QueryEnv): Doc[] {
  const results = new Aggregator(stages, { ...mingoOptions(env), processingMode: ProcessingMode.CLONE_OFF }).run<Doc>(docs);
  keepNumberTypes(stages, docs, results);
  return results;
}

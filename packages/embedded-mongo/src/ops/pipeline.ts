import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import { mingoOptions, type QueryEnv } from '../query/mingo-options';
import type { Doc } from '../types';

/** Stages that build new documents and never write into their inputs. */
const NON_MUTATING_STAGES = new Set(['$match', '$group', '$count', '$sort', '$skip', '$limit', '$sortByCount', '$project']);

/**
 * Runs an aggregation pipeline over stored documents. Some mingo stages (e.g. `$addFields` on a
 * dotted path) write into nested objects of their input, so inputs are cloned unless every stage is
 * known not to mutate (the common count/group/sort pipelines then skip a deep copy per document).
 */
export function runPipeline(stages: Doc[], docs: Doc[], env: QueryEnv): Doc[] {
  const safe = stages.every((stage) => NON_MUTATING_STAGES.has(Object.keys(stage)[0]));
  const processingMode = safe ? ProcessingMode.CLONE_OFF : ProcessingMode.CLONE_INPUT;
  return new Aggregator(stages, { ...mingoOptions(env), processingMode }).run<Doc>(docs);
}

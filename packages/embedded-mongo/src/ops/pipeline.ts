import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import { mingoOptions, type QueryEnv } from '../query/mingo-options';
import { numberTypesOf, setNumberTypes } from '../bson/number-types';
import { keyString } from '../indexes/key-string';
import { isDoc, type Doc } from '../types';

/** Stages after which an output `_id` no longer identifies the input document it came from. */
const RESHAPING_STAGES = new Set(['$group', '$bucket', '$bucketAuto', '$replaceRoot', '$replaceWith', '$facet', '$count', '$sortByCount', '$documents', '$unionWith']);

type Container = Record<string, unknown>;

const isContainer = (value: unknown): value is Container => Array.isArray(value) || isDoc(value);

/**
 * `output` with the BSON number types `source` has wherever a number was carried over unchanged at
 * the same path. Results share containers with stored documents, so a container needing types is
 * copied (with its path), never written: the result is `output` itself when nothing changes.
 */
function withInheritedTypes(source: unknown, output: unknown): unknown {
  if (source === output || !isContainer(source) || !isContainer(output)) return output;
  const hints = numberTypesOf(source) ?? {};
  const current = numberTypesOf(output) ?? {};
  const added: Container = {};
  const replaced: Container = {};
  for (const key of Object.keys(output)) {
    const value = output[key];
    if (typeof value === 'number') {
      if (value === source[key] && hints[key] && current[key] !== hints[key]) added[key] = hints[key];
      continue;
    }
    const typed = withInheritedTypes(source[key], value);
    if (typed !== value) replaced[key] = typed;
  }
  if (Object.keys(added).length === 0 && Object.keys(replaced).length === 0) return output;
  const copy = Object.assign(Array.isArray(output) ? [...output] : { ...output }, replaced);
  setNumberTypes(copy, { ...current, ...(added as typeof current) });
  return copy;
}

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
  const options = { ...mingoOptions(env), processingMode: ProcessingMode.CLONE_OFF };
  const results = new Aggregator(stages, options).run<Doc>(docs);
  return keepNumberTypes(stages, docs, results);
}

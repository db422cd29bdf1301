import { Aggregator } from 'mingo/aggregator';
import type { Options } from 'mingo/types';
import { MongoError } from '../errors';
import { rewriteFilter } from '../query/filter-rewrite';
import { copyNumberTypes } from '../bson/number-types';
import { isDoc, type Doc } from '../types';

/** mingo's per-run options (its ComputeOptions): expression root and variables of the current document. */
export interface RunOptions extends Options {
  readonly local: { variables?: Doc };
  update(locals: { root?: unknown; variables?: Doc }): RunOptions;
}

/**
 * An own copy of a stage's run options, to evaluate expressions per input document. mingo passes its
 * stages a ComputeOptions but does not export the class; its static `init` copies one cheaply.
 */
export function runOptions(options: Options): RunOptions {
  const init = (options.constructor as { init?: (options: Options) => RunOptions }).init;
  if (!init) throw new Error('expected mingo run options');
  return init.call(options.constructor, options);
}

/** A stage's pipeline argument: an array of stage documents. */
export function pipelineArgument(stage: string, pipeline: unknown): Doc[] {
  if (!Array.isArray(pipeline) || !pipeline.every(isDoc)) {
    throw new MongoError('FailedToParse', `${stage} 'pipeline' must be an array of stage objects`);
  }
  return pipeline;
}

/**
 * A nested pipeline compiled once for the stage, with `$match` filters rewritten as the top-level
 * ones are (BSON `$type`, collation). It runs without cloning: no stage writes into its inputs.
 */
export function subPipeline(stages: Doc[], options: Options): Aggregator {
  const collated = options.collation !== undefined;
  const rewritten = stages.map((stage) => {
    return isDoc(stage.$match) ? { $match: rewriteFilter(stage.$match, collated) } : stage;
  });
  return new Aggregator(rewritten, options);
}

/** A copy of the document with `value` at the dotted path; only the objects along the path are copied. */
export function withField(doc: Doc, path: string, value: unknown): Doc {
  const dot = path.indexOf('.');
  const head = dot < 0 ? path : path.slice(0, dot);
  const copy = { ...doc };
  copyNumberTypes(doc, copy);
  const current = doc[head];
  copy[head] = dot < 0 ? value : withField(isDoc(current) ? current : {}, path.slice(dot + 1), value);
  return copy;
}

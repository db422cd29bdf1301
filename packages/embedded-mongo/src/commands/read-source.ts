import type { ReadSource } from '../ops/match-options';
import { runPipeline } from '../ops/pipeline';
import type { Doc } from '../types';
import type { CommandContext } from './context';
import { withPipelines } from './pipeline-env';

/**
 * What a read of `name` runs over: the collection itself, or for a view the documents its pipeline
 * computes from its source (itself possibly a view; its pipeline may look up other collections).
 */
export function readSource(context: CommandContext, name: string): ReadSource {
  const collection = context.engine.collection(context.db, name);
  if (!collection?.isView) return collection;
  const source = readSource(context, String(collection.options.viewOn));
  const docs = Array.isArray(source) ? source : [...(source?.docs.values() ?? [])];
  const pipeline = (collection.options.pipeline ?? []) as Doc[];
  return runPipeline(
    pipeline,
    docs,
    withPipelines({}, (foreign) => readSource(context, foreign)),
  );
}

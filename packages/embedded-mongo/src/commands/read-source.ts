import { ForeignResolver } from '../ops/foreign-source';
import type { ReadSource } from '../ops/match';
import type { QueryEnv } from '../query/mingo-options';
import { runPipeline } from '../ops/pipeline';
import type { Doc } from '../types';
import type { CommandContext } from './context';

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
  const env: QueryEnv = {};
  env.foreign = new ForeignResolver((foreign) => readSource(context, foreign), env);
  return runPipeline(pipeline, docs, env);
}

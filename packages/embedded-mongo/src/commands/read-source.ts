import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import type { ReadSource } from '../ops/match';
import { mingoOptions } from '../query/mingo-options';
import type { Doc } from '../types';
import type { CommandContext } from './context';

/**
 * What a read of `name` runs over: the collection itself, or for a view the documents its pipeline
 * computes from its source (itself possibly a view).
 */
export function readSource(context: CommandContext, name: string): ReadSource {
  const collection = context.engine.collection(context.db, name);
  if (!collection?.isView) return collection;
  const source = readSource(context, String(collection.options.viewOn));
  const docs = Array.isArray(source) ? source : [...(source?.docs.values() ?? [])];
  const pipeline = (collection.options.pipeline ?? []) as Doc[];
  return new Aggregator(pipeline, { ...mingoOptions(), processingMode: ProcessingMode.CLONE_INPUT }).run<Doc>(docs);
}

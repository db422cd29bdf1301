import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import { candidates } from '../indexes/planner';
import { checkHint } from '../ops/match';
import { outputTarget, writeMerge, writeOut } from '../ops/output-stages';
import { mingoOptions } from '../query/mingo-options';
import { isDoc, type Doc } from '../types';
import type { CommandContext } from './context';
import { commandEnv } from './env';

/** Input documents: `$listLocalSessions` sessions, nothing for `aggregate: 1`, else the collection (narrowed by a leading $match). */
function source(command: Doc, context: CommandContext, pipeline: Doc[]): { docs: Doc[]; stages: Doc[] } {
  if (pipeline[0] && '$listLocalSessions' in pipeline[0]) return { docs: context.sessions.list(), stages: pipeline.slice(1) };
  if (typeof command.aggregate !== 'string') return { docs: [], stages: pipeline };
  const collection = context.engine.collection(context.db, command.aggregate);
  checkHint(collection, command.hint);
  if (!collection) return { docs: [], stages: pipeline };
  const firstMatch = pipeline[0]?.$match;
  const docs = isDoc(firstMatch) ? candidates(collection, firstMatch, command.collation as Doc | undefined) : collection.docs.values();
  return { docs: Array.from(docs), stages: pipeline };
}

export async function aggregate(command: Doc, context: CommandContext): Promise<Doc> {
  const pipeline = (command.pipeline ?? []) as Doc[];
  const last = pipeline.at(-1);
  const output = last && ('$out' in last || '$merge' in last) ? last : undefined;
  const { docs, stages } = source(command, context, output ? pipeline.slice(0, -1) : pipeline);
  const env = commandEnv(context, command);
  const options = { ...mingoOptions(env), processingMode: ProcessingMode.CLONE_INPUT };
  const results = new Aggregator(stages, options).run<Doc>(docs);
  const ns = typeof command.aggregate === 'string' ? `${context.db}.${command.aggregate}` : `${context.db}.$cmd.aggregate`;
  const cursorOptions = (command.cursor ?? {}) as Doc;
  const batchSize = cursorOptions.batchSize === undefined ? undefined : Number(cursorOptions.batchSize);
  if (!output) return context.cursors.open(ns, results, batchSize);
  const write = { bypassDocumentValidation: command.bypassDocumentValidation === true };
  if ('$out' in output) writeOut(context.engine, outputTarget(output.$out, context.db), results, write);
  else writeMerge(context.engine, output.$merge as Doc, context.db, results, env, write);
  await context.engine.flush();
  return context.cursors.open(ns, [], batchSize);
}

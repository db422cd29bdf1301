import { pushedDown } from '../ops/pushed-down';
import { findMatches } from '../ops/match';
import { outputTarget, writeMerge, writeOut } from '../ops/output-stages';
import { runPipeline } from '../ops/pipeline';
import { searchPipelineSource } from '../ops/search-pipeline';
import { effectiveFilter, type QueryEnv } from '../query/mingo-options';
import { isDoc, type Doc } from '../types';
import type { CommandContext } from './context';
import { commandEnv } from './env';
import { readSource } from './read-source';
import { statsStageDocs } from './stats-stages';

/**
 * Input documents: `$listLocalSessions` sessions, nothing for `aggregate: 1`, `$collStats` /
 * `$indexStats` statistics, else the collection.
 * A leading $match runs as a find (index candidates, stored documents uncloned).
 */
function source(command: Doc, context: CommandContext, pipeline: Doc[], env: QueryEnv): { docs: Doc[]; stages: Doc[] } {
  if (pipeline[0] && '$listLocalSessions' in pipeline[0])
    return { docs: context.sessions.list(), stages: pipeline.slice(1) };
  if (typeof command.aggregate !== 'string') return { docs: [], stages: pipeline };
  const stats = statsStageDocs(pipeline[0], context, command.aggregate);
  if (stats) return { docs: stats, stages: pipeline.slice(1) };
  const input = readSource(context, command.aggregate);
  const searched = searchPipelineSource(input, pipeline, env);
  if (searched) return searched;
  const firstMatch = pipeline[0]?.$match;
  if (isDoc(firstMatch)) {
    const { options, stages } = pushedDown(pipeline.slice(1));
    return { docs: findMatches(input, firstMatch, env, { ...options, hint: command.hint }), stages };
  }
  return { docs: findMatches(input, {}, env, { hint: command.hint }), stages: pipeline };
}

/** `$match` stages get the same filter rewrites as find ($type, collation). */
function rewriteMatch(stage: Doc, env: QueryEnv): Doc {
  return isDoc(stage.$match) ? { $match: effectiveFilter(stage.$match, env) } : stage;
}

export async function aggregate(command: Doc, context: CommandContext): Promise<Doc> {
  const pipeline = (command.pipeline ?? []) as Doc[];
  const last = pipeline.at(-1);
  const output = last && ('$out' in last || '$merge' in last) ? last : undefined;
  const env = commandEnv(context, command, command.aggregate);
  const { docs, stages } = source(command, context, output ? pipeline.slice(0, -1) : pipeline, env);
  const results = runPipeline(
    stages.map((stage) => rewriteMatch(stage, env)),
    docs,
    env,
  );
  const ns =
    typeof command.aggregate === 'string' ? `${context.db}.${command.aggregate}` : `${context.db}.$cmd.aggregate`;
  const cursorOptions = (command.cursor ?? {}) as Doc;
  const batchSize = cursorOptions.batchSize === undefined ? undefined : Number(cursorOptions.batchSize);
  if (!output) return context.cursors.open(ns, results, batchSize);
  const write = { bypassDocumentValidation: command.bypassDocumentValidation === true };
  if ('$out' in output) writeOut(context.engine, outputTarget(output.$out, context.db), results, write);
  else writeMerge(context.engine, output.$merge as Doc, context.db, results, env, write);
  await context.engine.flush();
  return context.cursors.open(ns, [], batchSize);
}

import { concat, Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { MongoError } from '../errors';
import { isDoc, type Doc } from '../types';
import type { QueryEnv } from '../query/mingo-options';
import { ForeignResolver, foreignResolver, sourceDocs } from './foreign-source';
import { countMatches, findMatches } from './match';
import { pipelineArgument, subPipeline, type RunOptions } from './sub-pipeline';

interface UnionSpec {
  coll?: string;
  pipeline: Doc[];
}

function parseUnion(expr: unknown): UnionSpec {
  if (typeof expr === 'string') return { coll: expr, pipeline: [] };
  if (!isDoc(expr)) {
    throw new MongoError('FailedToParse', 'the $unionWith stage specification must be an object or string');
  }
  const unknown = Object.keys(expr).find((key) => key !== 'coll' && key !== 'pipeline');
  if (unknown) throw new MongoError('FailedToParse', `BSON field '$unionWith.${unknown}' is an unknown field.`);
  if (expr.coll !== undefined && typeof expr.coll !== 'string') {
    throw new MongoError('FailedToParse', "$unionWith 'coll' must be a string");
  }
  const pipeline = expr.pipeline === undefined ? [] : pipelineArgument('$unionWith', expr.pipeline);
  if (expr.coll === undefined && !(pipeline[0] && '$documents' in pipeline[0])) {
    throw new MongoError('FailedToParse', "$unionWith requires 'coll' unless its pipeline starts with $documents");
  }
  return { coll: expr.coll, pipeline };
}

/** Whether no enclosing `$lookup` has bound variables (a planned `$match` sees only the command's `let`). */
function noLocalVariables(options: Options): boolean {
  const variables = (options as Partial<RunOptions>).local?.variables;
  return !variables || Object.keys(variables).length === 0;
}

/**
 * The unioned collection's documents and the stages of the union's pipeline still to run over them: a leading
 * `$match` runs through the planner (indexes) unless an enclosing `$lookup` binds variables (`variablesBound`).
 */
function unionedSource(
  spec: UnionSpec,
  resolver: ForeignResolver,
  variablesBound: boolean,
): { docs: Iterable<Doc>; stages: Doc[] } {
  const source = spec.coll === undefined ? undefined : resolver.source(spec.coll);
  const first = spec.pipeline[0]?.$match;
  if (!source || !isDoc(first) || variablesBound) return { docs: sourceDocs(source), stages: spec.pipeline };
  const counted = countName(spec.pipeline);
  if (counted !== undefined) {
    // Counted as the `count` command counts (index keys alone when the bounds are exact); none: no document.
    const env = resolver.env;
    const n = Array.isArray(source) ? findMatches(source, first, env).length : countMatches(source, first, env, {});
    return { docs: n > 0 ? [{ [counted]: n }] : [], stages: [] };
  }
  return { docs: findMatches(source, first, resolver.env), stages: spec.pipeline.slice(1) };
}

/**
 * The output field of a pipeline that is one `$match` and a `$count` (a page's total appended to it by the
 * storefront), if its name is one `$count` takes: not empty, no `$` first, no `.`; else undefined (mingo's `$count`
 * runs, and refuses a bad name).
 */
function countName(pipeline: Doc[]): string | undefined {
  if (pipeline.length !== 2 || Object.keys(pipeline[1]).length !== 1) return undefined;
  const name = pipeline[1].$count;
  return typeof name === 'string' && name !== '' && !name.startsWith('$') && !name.includes('.') ? name : undefined;
}

/** The unioned documents: `unionedSource`'s, through the rest of the union's pipeline in mingo. */
function unionedDocs(spec: UnionSpec, resolver: ForeignResolver, options: Options): Iterator {
  const { docs, stages } = unionedSource(spec, resolver, !noLocalVariables(options));
  return stages.length ? subPipeline(stages, options).stream(docs) : Lazy(docs);
}

/** `$unionWith`: the input, then the other collection's documents (shared, not copied) through its pipeline. */
export function $unionWith(coll: Iterator, expr: unknown, options: Options): Iterator {
  const spec = parseUnion(expr);
  const resolver = foreignResolver(options, '$unionWith');
  let unioned: Iterator | undefined;
  return concat(
    coll,
    Lazy(() => (unioned ??= unionedDocs(spec, resolver, options)).next()),
  );
}

/**
 * A `$unionWith` of a collection with no pipeline, one of a single `$match`, or of a `$match` and a `$count`
 * (answered by `unionedSource`).
 */
function isPlainUnion(stage: Doc): boolean {
  const expr = stage.$unionWith;
  if (Object.keys(stage).length !== 1) return false;
  if (typeof expr === 'string') return true;
  if (!isDoc(expr) || typeof expr.coll !== 'string') return false;
  const pipeline = expr.pipeline ?? [];
  if (!Array.isArray(pipeline) || !pipeline.every(isDoc)) return false;
  const [first] = pipeline;
  if (first === undefined) return true;
  const matchFirst = Object.keys(first).length === 1 && isDoc(first.$match);
  return matchFirst && (pipeline.length === 1 || countName(pipeline) !== undefined);
}

/**
 * A pipeline made only of plain `$unionWith` stages (`isPlainUnion`; the storefront's page and its counters, after
 * the read the page's stages were pushed down to): the input, then each union's documents, as the stages give them,
 * without mingo's aggregator (its per-run options, a lazy iterator per stage and per document), which was about as
 * much CPU as the union's own reads. Undefined for any other pipeline, or without this server's `$unionWith`.
 */
export function unionsAlone(stages: Doc[], docs: Doc[], env: QueryEnv): Doc[] | undefined {
  const resolver = env.pipeline?.foreign;
  if (!(resolver instanceof ForeignResolver) || !stages.every(isPlainUnion)) return undefined;
  const results = [...docs];
  for (const stage of stages) {
    const { docs: unioned } = unionedSource(parseUnion(stage.$unionWith), resolver, false);
    for (const doc of unioned) results.push(doc);
  }
  return results;
}

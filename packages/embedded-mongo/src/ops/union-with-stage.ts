import { concat, Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { MongoError } from '../errors';
import { isDoc, type Doc } from '../types';
import { foreignResolver, sourceDocs, type ForeignResolver } from './foreign-source';
import { findMatches } from './match';
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

/** The unioned documents: a leading `$match` runs through the planner (indexes), the rest through mingo. */
function unionedDocs(spec: UnionSpec, resolver: ForeignResolver, options: Options): Iterator {
  const source = spec.coll === undefined ? undefined : resolver.source(spec.coll);
  let docs: Iterable<Doc> = sourceDocs(source);
  let stages = spec.pipeline;
  const first = stages[0]?.$match;
  if (source && isDoc(first) && noLocalVariables(options)) {
    docs = findMatches(source, first, resolver.env);
    stages = stages.slice(1);
  }
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

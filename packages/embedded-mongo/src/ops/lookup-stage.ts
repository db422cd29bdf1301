import { evalExpr } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { MongoError } from '../errors';
import { isDoc, type Doc } from '../types';
import { joinedValues } from './field-values';
import { foreignResolver, sourceDocs, type ForeignResolver } from './foreign-source';
import { pipelineArgument, runOptions, subPipeline, withField } from './sub-pipeline';

interface LookupSpec {
  from?: string;
  as: string;
  localField?: string;
  foreignField?: string;
  let?: Doc;
  pipeline?: Doc[];
}

const LOOKUP_ARGUMENTS = new Set(['from', 'as', 'localField', 'foreignField', 'let', 'pipeline']);

function parseError(message: string): MongoError {
  return new MongoError('FailedToParse', message);
}

function stringArgument(expr: Doc, name: string): string | undefined {
  const value = expr[name];
  if (value !== undefined && typeof value !== 'string') throw parseError(`$lookup argument '${name}' must be a string, found ${typeof value}`);
  return value;
}

/** MongoDB's $lookup forms: localField/foreignField, let/pipeline, both (5.0+), pipeline from `$documents`. */
function parseLookup(expr: unknown): LookupSpec {
  if (!isDoc(expr)) throw parseError('the $lookup specification must be an Object');
  const unknown = Object.keys(expr).find((key) => !LOOKUP_ARGUMENTS.has(key));
  if (unknown) throw parseError(`unknown argument to $lookup: ${unknown}`);
  const as = stringArgument(expr, 'as');
  if (as === undefined) throw parseError("must specify 'as' field for a $lookup");
  const localField = stringArgument(expr, 'localField');
  const foreignField = stringArgument(expr, 'foreignField');
  if ((localField === undefined) !== (foreignField === undefined)) {
    throw parseError("$lookup requires both or neither of 'localField' and 'foreignField' to be specified");
  }
  const pipeline = expr.pipeline === undefined ? undefined : pipelineArgument('$lookup', expr.pipeline);
  if (localField === undefined && pipeline === undefined) {
    throw parseError("$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified");
  }
  if (expr.let !== undefined && (!isDoc(expr.let) || pipeline === undefined)) throw parseError("$lookup 'let' must be an object, used with 'pipeline'");
  const from = stringArgument(expr, 'from');
  if (from === undefined && !(pipeline?.[0] && '$documents' in pipeline[0])) throw parseError("must specify 'from' field for a $lookup");
  return { from, as, localField, foreignField, let: expr.let as Doc | undefined, pipeline };
}

/** The foreign documents equal on the join fields: any local value (missing means null) against the foreign field. */
function equalityJoin(spec: LookupSpec, resolver: ForeignResolver): ((doc: Doc) => Doc[]) | undefined {
  if (spec.localField === undefined || spec.foreignField === undefined) return undefined;
  const localPath = spec.localField.split('.');
  if (spec.from === undefined) return () => [];
  const foreign = resolver.field(spec.from, spec.foreignField);
  return (doc) => {
    const values = joinedValues(doc, localPath);
    return foreign.find(values.length ? values : [null]);
  };
}

/** Runs the stage's pipeline per input document, its `let` variables evaluated against that document. */
function pipelineJoin(spec: LookupSpec, options: Options): ((doc: Doc, foreign: Iterable<Doc>) => Doc[]) | undefined {
  if (!spec.pipeline) return undefined;
  const aggregator = subPipeline(spec.pipeline, options);
  const letOptions = runOptions(options);
  const perDocument = runOptions(options);
  const letExpr = spec.let ?? {};
  return (doc, foreign) => {
    const variables = evalExpr(doc, letExpr, letOptions.update({ root: doc })) as Doc;
    return aggregator.run<Doc>(foreign, perDocument.update({ root: null, variables }));
  };
}

/**
 * `$lookup` with MongoDB's semantics. Equality joins look the foreign field up through an index when
 * one serves it, else through one hash of the foreign collection per command; the foreign documents
 * are shared, and each output is a shallow copy of its input with the `as` field set.
 */
export function $lookup(coll: Iterator, expr: unknown, options: Options): Iterator {
  const spec = parseLookup(expr);
  const resolver = foreignResolver(options, '$lookup');
  const join = equalityJoin(spec, resolver);
  const pipeline = pipelineJoin(spec, options);
  return coll.map((doc: Doc) => {
    const foreign = join ? join(doc) : spec.from === undefined ? [] : sourceDocs(resolver.source(spec.from));
    return withField(doc, spec.as, pipeline ? pipeline(doc, foreign) : foreign);
  });
}

import { evalExpr } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { MongoError } from '../errors';
import { isDoc, type Doc } from '../types';
import { joinedValues } from './field-values';
import { foreignResolver, sourceDocs, type ForeignResolver } from './foreign-source';
import { joinPipeline } from './join-pipeline';
import { pipelineArgument, runOptions, withField } from './sub-pipeline';

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
  if (value === undefined || typeof value === 'string') return value;
  throw parseError(`$lookup argument '${name}' must be a string, found ${typeof value}`);
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
  if (expr.let !== undefined && (!isDoc(expr.let) || pipeline === undefined)) {
    throw parseError("$lookup 'let' must be an object, used with 'pipeline'");
  }
  const from = stringArgument(expr, 'from');
  const fromDocuments = pipeline?.[0] !== undefined && '$documents' in pipeline[0];
  if (from === undefined && !fromDocuments) throw parseError("must specify 'from' field for a $lookup");
  return { from, as, localField, foreignField, let: expr.let, pipeline };
}

type Candidates = (doc: Doc, variables: Doc) => Iterable<Doc>;

/** `'$field'` (a top-level field) and `'$$name'` (a variable): the two sides of a correlated equality. */
function fieldAndVariable(field: unknown, variable: unknown): { field: string; variable: string } | undefined {
  if (typeof field !== 'string' || typeof variable !== 'string') return undefined;
  if (!/^\$[^$.]+$/.test(field) || !/^\$\$[A-Za-z_]\w*$/.test(variable)) return undefined;
  return { field: field.slice(1), variable: variable.slice(2) };
}

/**
 * A leading `$match` whose `$expr` requires `{$eq: ['$field', '$$variable']}` (alone or in an `$and`)
 * with a `let` variable: MongoDB answers it through an index on the field, and so do we. The
 * documents equal to the value under query equality (a superset: arrays also match by element,
 * null also matches missing) are the candidates; the `$match` itself then decides. (mingo's `$eq`
 * also flattens a field's nested arrays one level; MongoDB's does not, neither do the candidates.)
 */
function correlatedEquality(spec: LookupSpec): { field: string; variable: string } | undefined {
  const match = spec.pipeline?.[0]?.$match;
  if (!isDoc(match) || !isDoc(match.$expr) || !spec.let) return undefined;
  const conjuncts: unknown[] = Array.isArray(match.$expr.$and) ? match.$expr.$and : [match.$expr];
  for (const conjunct of conjuncts) {
    const operands = isDoc(conjunct) ? conjunct.$eq : undefined;
    if (!Array.isArray(operands) || operands.length !== 2) continue;
    const pair = fieldAndVariable(operands[0], operands[1]) ?? fieldAndVariable(operands[1], operands[0]);
    if (pair && pair.variable in spec.let) return pair;
  }
  return undefined;
}

/**
 * Values whose query-equality matches hold every document mingo's `$eq` can accept for `value`: an
 * array is also compared by its elements (and theirs, one level down), whichever side it is on.
 */
function equalityCandidates(value: unknown): unknown[] {
  return Array.isArray(value) ? [value, ...(value as unknown[]), ...(value.flat() as unknown[])] : [value];
}

/**
 * The foreign documents an input document joins (before the pipeline, if any): those equal on the
 * join fields (any local value, missing meaning null, against the foreign field), the candidates of
 * a correlated equality, or the whole foreign collection.
 */
function candidates(spec: LookupSpec, resolver: ForeignResolver, options: Options): Candidates {
  const { from, localField, foreignField } = spec;
  if (from === undefined) return () => [];
  if (localField !== undefined && foreignField !== undefined) {
    const localPath = localField.split('.');
    const foreign = resolver.field(from, foreignField);
    return (doc) => {
      const values = joinedValues(doc, localPath);
      return foreign.find(values.length ? values : [null]);
    };
  }
  // Under a collation strings compare by it in $expr; the hash only folds case and accents.
  const correlated = options.collation === undefined ? correlatedEquality(spec) : undefined;
  if (correlated) {
    const foreign = resolver.field(from, correlated.field);
    return (_doc, variables) => foreign.find(equalityCandidates(variables[correlated.variable]));
  }
  return () => sourceDocs(resolver.source(from));
}

type PipelineJoin = (foreign: Iterable<Doc>, variables: Doc) => Doc[];

/** Runs the stage's pipeline over an input document's candidates, with its `let` variables. */
function pipelineJoin(spec: LookupSpec, options: Options): PipelineJoin | undefined {
  if (!spec.pipeline) return undefined;
  const pipeline = joinPipeline(spec.pipeline, options);
  const perDocument = runOptions(options);
  return (foreign, variables) => pipeline(foreign, perDocument.update({ root: null, variables }));
}

/** The `let` variables evaluated against an input document (`$$ROOT` being that document). */
function letVariables(spec: LookupSpec, options: Options): (doc: Doc) => Doc {
  if (!spec.let) return () => ({});
  const letExpr = spec.let;
  const letOptions = runOptions(options);
  return (doc) => evalExpr(doc, letExpr, letOptions.update({ root: doc })) as Doc;
}

/**
 * `$lookup` with MongoDB's semantics. Equality joins look the foreign field up through an index when
 * one serves it, else through one hash of the foreign collection per command; the foreign documents
 * are shared, and each output is a shallow copy of its input with the `as` field set.
 */
export function $lookup(coll: Iterator, expr: unknown, options: Options): Iterator {
  const spec = parseLookup(expr);
  const resolver = foreignResolver(options, '$lookup');
  const joined = candidates(spec, resolver, options);
  const variablesOf = letVariables(spec, options);
  const pipeline = pipelineJoin(spec, options);
  return coll.map((doc: Doc) => {
    const variables = variablesOf(doc);
    const foreign = joined(doc, variables);
    return withField(doc, spec.as, pipeline ? pipeline(foreign, variables) : foreign);
  });
}

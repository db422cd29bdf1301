import { Lazy, type Iterator } from 'mingo/lazy';
import * as pipelineOperators from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';
import { copyNumberTypes } from '../bson/number-types';
import { MongoError } from '../errors';
import { isDoc, type Doc } from '../types';
import { pipelineArgument, subPipeline } from './sub-pipeline';

/**
 * Pipelines run over stored documents without cloning them. Most mingo stages build new documents,
 * but a few write into their input through a dotted path (`$addFields`/`$set`/`$setWindowFields`/
 * `$fill` setting `a.b`, `$project`/`$unset` excluding `a.b`) or into the input document itself
 * (`$unwind` with `includeArrayIndex` or `preserveNullAndEmptyArrays`). Those stages get a copy of
 * each input in which only the fields they write are copied (deeply, keeping number types).
 */

type Stage<E> = (coll: Iterator, expr: E, options: Options) => Iterator;
type Writes = { shallow: boolean; fields: string[] };

function copyTree(value: unknown): unknown {
  if (!Array.isArray(value) && !isDoc(value)) return value;
  const copy = Array.isArray(value)
    ? value.map(copyTree)
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyTree(item)]));
  copyNumberTypes(value, copy);
  return copy;
}

/** A shallow copy of the document whose top-level `fields` are deep copies. */
function detach(doc: Doc, fields: string[]): Doc {
  const copy = { ...doc };
  copyNumberTypes(doc, copy);
  for (const field of fields) if (field in doc) copy[field] = copyTree(doc[field]);
  return copy;
}

const topField = (path: string): string => path.split('.')[0];
const dottedTops = (paths: string[]): string[] => [
  ...new Set(paths.filter((path) => path.includes('.')).map(topField)),
];

/** Runs `stage` over copies of its inputs when it writes into them (`writes`: what it writes through). */
function copyOnWrite<E>(stage: Stage<E>, writes: (expr: E) => Writes): Stage<E> {
  return (coll, expr, options) => {
    const { shallow, fields } = writes(expr);
    const input = shallow || fields.length ? coll.map((doc: Doc) => detach(doc, fields)) : coll;
    return stage(input, expr, options);
  };
}

/** Paths a projection excludes (`{a: {b: 0}}` and `{'a.b': 0}` both exclude `a.b`). */
function excludedPaths(projection: unknown, prefix = ''): string[] {
  if (!isDoc(projection)) return [];
  return Object.entries(projection).flatMap(([key, value]) => {
    if (value === 0 || value === false) return [prefix + key];
    const nested = isDoc(value) && !Object.keys(value).some((name) => name.startsWith('$'));
    return nested ? excludedPaths(value, `${prefix}${key}.`) : [];
  });
}

/** A find projection's inputs: copies of the fields a dotted exclusion (`{'a.b': 0}`) removes from. */
export function detachExcluded(docs: Doc[], projection: Doc): Doc[] {
  const fields = dottedTops(excludedPaths(projection));
  return fields.length ? docs.map((doc) => detach(doc, fields)) : docs;
}

const keysOf = (expr: unknown): string[] => (isDoc(expr) ? Object.keys(expr) : []);
const outputKeys = (expr: unknown): string[] => (isDoc(expr) ? keysOf(expr.output) : []);

function unwindWrites(expr: unknown): Writes {
  const spec = isDoc(expr) ? expr : {};
  const writes = Boolean(spec.includeArrayIndex) || spec.preserveNullAndEmptyArrays === true;
  const path = String(typeof expr === 'string' ? expr : (spec.path ?? '')).replace(/^\$/, '');
  return { shallow: writes, fields: writes ? dottedTops([path]) : [] };
}

const fieldsOnly = (fields: string[]) => ({ shallow: false, fields });

/** Stages MongoDB refuses inside a `$facet` sub-pipeline. */
const FACET_EXCLUDED = new Set(['$facet', '$out', '$merge', '$collStats', '$indexStats', '$geoNear']);

/** `$facet`: the input is collected once and every sub-pipeline reads the same documents, uncloned. */
export function $facet(coll: Iterator, expr: unknown, options: Options): Iterator {
  if (!isDoc(expr) || Object.keys(expr).length === 0) {
    throw new MongoError('FailedToParse', 'the $facet specification must be a non-empty object');
  }
  const facets = Object.entries(expr).map(([name, stages]) => {
    const pipeline = pipelineArgument('$facet', stages);
    const nested = pipeline.map((stage) => Object.keys(stage)[0]).find((stage) => FACET_EXCLUDED.has(stage));
    if (nested) throw new MongoError('Location40600', `${nested} is not allowed to be used within a $facet stage`);
    return [name, subPipeline(pipeline, options)] as const;
  });
  return coll.transform((docs: Doc[]) => {
    const results = Object.fromEntries(facets.map(([name, pipeline]) => [name, pipeline.run(docs)]));
    return Lazy([results]);
  });
}

/** `$redact`: a pruned document leaves the stream (mingo yields `undefined` in its place). */
export function $redact(coll: Iterator, expr: Doc, options: Options): Iterator {
  return pipelineOperators.$redact(coll, expr, options).filter((doc: unknown) => doc !== undefined);
}

type Written = '$addFields' | '$set' | '$project' | '$unset' | '$unwind' | '$setWindowFields' | '$fill';

/** mingo's stages that write into their inputs, given copies of what they write. */
export const copyOnWriteStages: Pick<typeof pipelineOperators, Written> = {
  $addFields: copyOnWrite(pipelineOperators.$addFields, (expr) => fieldsOnly(dottedTops(keysOf(expr)))),
  $set: copyOnWrite(pipelineOperators.$set, (expr) => fieldsOnly(dottedTops(keysOf(expr)))),
  $project: copyOnWrite(pipelineOperators.$project, (expr) => fieldsOnly(dottedTops(excludedPaths(expr)))),
  $unset: copyOnWrite(pipelineOperators.$unset, (expr) => fieldsOnly(dottedTops([expr].flat().map(String)))),
  $unwind: copyOnWrite(pipelineOperators.$unwind, unwindWrites),
  $setWindowFields: copyOnWrite(pipelineOperators.$setWindowFields, (expr) => fieldsOnly(dottedTops(outputKeys(expr)))),
  $fill: copyOnWrite(pipelineOperators.$fill, (expr) => fieldsOnly(dottedTops(outputKeys(expr)))),
};

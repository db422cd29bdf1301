import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { compare, isDate, resolve } from 'mingo/util';
import { rewriteFilter } from '../query/filter-rewrite';
import { mentions } from '../query/mingo-options';
import { isDoc, type Doc } from '../types';
import { sortDocuments } from './decimal-stages';
import { fieldExclusion, fieldInclusion, omitFields, pickFields } from './field-projection';
import { withInheritedTypes } from './result-types';
import { subPipeline, type RunOptions } from './sub-pipeline';

/** Runs a join's pipeline over one input document's foreign documents. */
export type JoinPipeline = (foreign: Iterable<Doc>, options: RunOptions) => Doc[];

type Step = (docs: Doc[], options: RunOptions) => Doc[];

/** Query operators that read the per-document variables: such a `$match` must be compiled per document. */
const EXPRESSION_QUERY_OPERATORS = new Set(['$expr', '$where', '$jsonSchema', '$function']);

/**
 * A `$lookup` pipeline prepared once per command. mingo compiles every stage (and copies its operator tables) each
 * time a pipeline runs, which a join pays once per input document; so its plain `$match` stages (no expression
 * operators, so no variables) are compiled once, and its `$sort`, `$limit` and plain `$project` stages run on arrays.
 * Everything else runs in mingo stage groups prepared once. The results are those of running the whole pipeline in
 * mingo, but for the order of a plain inclusion's fields (see `plainProjection`).
 */
export function joinPipeline(stages: Doc[], options: Options): JoinPipeline {
  const steps = stages.some((stage, index) => index > 0 && '$documents' in stage)
    ? [mingoStep(stages, options)]
    : planSteps(stages, options);
  return (foreign, runOptions) => steps.reduce((docs, step) => step(docs, runOptions), [...foreign]);
}

function planSteps(stages: Doc[], options: Options): Step[] {
  const steps: Step[] = [];
  let pending: Doc[] = [];
  for (const stage of stages) {
    const step = arrayStep(stage, options);
    if (!step) {
      pending.push(stage);
      continue;
    }
    if (pending.length > 0) steps.push(mingoStep(pending, options));
    pending = [];
    steps.push(step);
  }
  if (pending.length > 0) steps.push(mingoStep(pending, options));
  return steps;
}

function mingoStep(stages: Doc[], options: Options): Step {
  const aggregator = subPipeline(stages, options);
  return (docs, runOptions) => aggregator.run<Doc>(docs, runOptions);
}

/**
 * The stages that run on arrays: a plain `$match`, a `$sort` by ascending/descending keys, a positive `$limit`, a
 * `$project` of top-level fields.
 */
function arrayStep(stage: Doc, options: Options): Step | undefined {
  if (Object.keys(stage).length !== 1) return undefined;
  if (isDoc(stage.$match)) return plainMatch(stage.$match, options);
  if (isDoc(stage.$project)) return plainProjection(stage.$project);
  if (isDoc(stage.$sort)) return arraySort(stage.$sort, options);
  const limit = stage.$limit;
  if (typeof limit === 'number' && Number.isInteger(limit) && limit > 0) return (docs) => docs.slice(0, limit);
  return undefined;
}

function plainMatch(filter: Doc, options: Options): Step | undefined {
  if (mentions(filter, (key) => EXPRESSION_QUERY_OPERATORS.has(key))) return undefined;
  // The rewrite the mingo stage gets (BSON `$type`, collation), compiled once.
  const query = new Query(rewriteFilter(filter, options.collation !== undefined), options);
  return (docs) => docs.filter((doc) => query.test(doc));
}

/**
 * A `$project` that keeps or removes top-level fields only, as one pass over each document's keys: `_id` first, then
 * the document's fields in its own order, as MongoDB projects (and as a find's projection and a `$match` + `$project`
 * pushed down to the read do here; mingo's stage orders an inclusion's fields as the projection names them). The
 * fields' BSON number types are kept. Profiled: the storefront's stock edit joins its product's entry and offers
 * through such projections, and mingo's `$project` (a graph walk per path) was most of those joins' CPU.
 */
function plainProjection(spec: Doc): Step | undefined {
  const inclusion = fieldInclusion(spec);
  if (inclusion) return (docs) => docs.map((doc) => withInheritedTypes(doc, pickFields(doc, inclusion)) as Doc);
  const excluded = fieldExclusion(spec);
  if (excluded) return (docs) => docs.map((doc) => withInheritedTypes(doc, omitFields(doc, excluded)) as Doc);
  return undefined;
}

/**
 * mingo's `$sort` groups the documents by each key's value (hashing it) and orders the groups. For keys whose
 * values are all null/missing, booleans, numbers (not NaN), strings, valid dates or ObjectIds, equal under mingo's
 * comparison means the same group, so a stable sort comparing the keys in turn gives the same order, without the
 * hashing. Other values, and a collation, take mingo's `$sort`.
 */
function arraySort(spec: Doc, options: Options): Step | undefined {
  const keys = Object.entries(spec);
  if (keys.length === 0 || !keys.every(([, direction]) => direction === 1 || direction === -1)) return undefined;
  if (options.collation !== undefined) return undefined;
  const paths = keys.map(([path]) => path);
  const directions = keys.map(([, direction]) => direction as number);
  return (docs, runOptions) => {
    const rows = docs.map((doc, index) => ({ doc, index, values: paths.map((path) => resolve(doc, path) ?? null) }));
    if (!rows.every((row) => row.values.every(isPlainSortValue))) {
      return sortDocuments(docs, spec as Record<string, 1 | -1>, runOptions);
    }
    rows.sort((a, b) => {
      for (let key = 0; key < paths.length; key++) {
        const order = compare(a.values[key], b.values[key]) * directions[key];
        if (order !== 0) return order;
      }
      return a.index - b.index;
    });
    return rows.map((row) => row.doc);
  };
}

function isPlainSortValue(value: unknown): boolean {
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return true;
    case 'number':
      return !Number.isNaN(value);
    case 'object':
      if (value === null) return true;
      if (isDate(value)) return !Number.isNaN(value.getTime());
      return (value as { _bsontype?: unknown })._bsontype === 'ObjectId';
    default:
      return false;
  }
}

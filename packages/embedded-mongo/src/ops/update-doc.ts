import { Aggregator } from 'mingo/aggregator';
import { update as applyModifier } from 'mingo/updater';
import { isEqual, setValue } from 'mingo/util';
import { MongoError } from '../errors';
import { effectiveFilter, mingoOptions, type QueryEnv } from '../query/mingo-options';
import { isDoc, type Doc } from '../types';
import { cloneDoc, isOperatorDoc, withNumberTypesOf } from './documents';

export type UpdateSpec = Doc | Doc[];

export interface UpdateInput {
  update: UpdateSpec;
  arrayFilters?: Doc[];
  env: QueryEnv;
}

function checkModifier(modifier: Doc): void {
  for (const key of Object.keys(modifier)) {
    if (!key.startsWith('$')) {
      throw new MongoError('FailedToParse', `Unknown modifier: ${key}. Expected a valid update modifier or pipeline-style update specified as an array`);
    }
  }
}

/**
 * The document after applying an update (operators via mingo, pipeline via mingo's Aggregator, or a
 * replacement). Never mutates `current`. `inserting` applies `$setOnInsert` (upserts).
 */
export function applyUpdate(current: Doc, input: UpdateInput, filter: Doc, inserting: boolean): Doc {
  const { update } = input;
  let next: Doc;
  if (Array.isArray(update)) {
    next = new Aggregator(update, mingoOptions(input.env)).run([cloneDoc(current)])[0] ?? {};
  } else if (isOperatorDoc(update)) {
    checkModifier(update);
    const { $setOnInsert, ...modifier } = update;
    next = cloneDoc(current);
    // mingo re-checks the filter (it resolves the positional `$` from it), so it gets the collated form;
    // an upsert's seed need not match a range filter, so inserts skip the check.
    if (Object.keys(modifier).length) applyModifier(next, modifier, input.arrayFilters, inserting ? undefined : effectiveFilter(filter, input.env), { queryOptions: mingoOptions(input.env) });
    if (inserting && isDoc($setOnInsert)) applyModifier(next, { $set: $setOnInsert }, undefined, undefined, { queryOptions: mingoOptions(input.env) });
  } else {
    const replacement = cloneDoc(update);
    next = withNumberTypesOf(replacement, { _id: current._id, ...replacement });
  }
  if (next._id === undefined && current._id !== undefined) next = withNumberTypesOf(next, { _id: current._id, ...next });
  if (!inserting && !isEqual(next._id, current._id)) {
    throw new MongoError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  return next;
}

/** The equality fields of a filter, which seed the document an upsert inserts. */
export function upsertSeed(filter: Doc): Doc {
  const seed: Doc = {};
  const visit = (condition: Doc): void => {
    for (const [key, value] of Object.entries(condition)) {
      if (key === '$and' && Array.isArray(value)) value.forEach((clause) => isDoc(clause) && visit(clause));
      if (key.startsWith('$')) continue;
      if (isOperatorDoc(value)) {
        if ('$eq' in value) setValue(seed, key, value.$eq);
      } else {
        setValue(seed, key, value);
      }
    }
  };
  visit(filter);
  return seed;
}

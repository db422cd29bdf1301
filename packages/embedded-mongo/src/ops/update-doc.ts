import { inheritNumberTypes } from '../bson/number-types';
import { Aggregator } from 'mingo/aggregator';
import * as updateOperators from 'mingo/operators/update';
import { isEqual, setValue } from 'mingo/util';
import { MongoError } from '../errors';
import { checkArithmetic } from './arithmetic-updates';
import { applyDocumentPull, isDocumentPull } from './pull-update';
import { keyString } from '../indexes/key-string';
import {
  compileOptions,
  effectiveFilter,
  filterOptions,
  hasDefaultOptions,
  mingoOptions,
  updaterOptions,
  type ComputeOptions,
  type QueryEnv,
} from '../query/mingo-options';
import { isDoc, type Doc } from '../types';
import { cloneDoc, copyAlong, isOperatorDoc, withNumberTypesOf } from './documents';
import {
  checkPathConflicts,
  checkPathsViable,
  mingoModifiers,
  positionalResolver,
  updateEntries,
  usesPositional,
  writtenPaths,
  type UpdateEntry,
} from './update-paths';

export type UpdateSpec = Doc | Doc[];

export interface UpdateInput {
  update: UpdateSpec;
  arrayFilters?: Doc[];
  env: QueryEnv;
  /** A private deep copy of a current document, which the update may mutate (default: clone through BSON). */
  copy?: (doc: Doc) => Doc;
  /**
   * The current documents are stored ones, never mutated in place: an operator update copies only the containers on
   * the paths it writes (`copyAlong`) and shares the rest with them, instead of a deep copy.
   */
  sharesUnwritten?: boolean;
}

function checkModifier(modifier: Doc): void {
  for (const key of Object.keys(modifier)) {
    if (!(key in updateOperators) && key !== '$setOnInsert') {
      throw new MongoError(
        'FailedToParse',
        `Unknown modifier: ${key}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
  }
}

/** mingo keeps duplicates of an `$addToSet: {$each}` list when the array field is missing; MongoDB does not. */
function dedupeAddToSet(operators: Doc): Doc {
  if (!isDoc(operators.$addToSet)) return operators;
  const fields = Object.entries(operators.$addToSet).map(([path, value]) => {
    if (!isDoc(value) || !Array.isArray(value.$each)) return [path, value];
    const unique = new Map(value.$each.map((item: unknown) => [keyString([item]), item]));
    return [path, { ...value, $each: [...unique.values()] }];
  });
  return { ...operators, $addToSet: Object.fromEntries(fields) };
}

/**
 * mingo refuses every path on `_id`; MongoDB refuses only a change of its value, which `keepId` checks after the
 * update. mingo therefore gets an id key no document has.
 */
const UNUSED_ID_KEY = '\u0000embedded-mongo-id';

/** The updater's options for statements with the default options (`hasDefaultOptions`), compiled once. */
const DEFAULT_UPDATER_OPTIONS = compileOptions({ ...updaterOptions(), idKey: UNUSED_ID_KEY });

type UpdateOperator = (expr: Doc, arrayFilters: Doc[], options: ComputeOptions) => (doc: Doc) => unknown;
/** mingo's update operators as a plain table (the module's exports are getters), each typed by its own argument. */
const UPDATE_OPERATORS = { ...updateOperators } as unknown as Record<string, UpdateOperator>;

/**
 * Applies one modifier with mingo's update operators, as its `updateMany` does with no condition, but without
 * compiling mingo's operator tables into a new context on every call: a statement's options share them.
 */
function applyModifier(docs: Doc[], modifier: Doc, input: UpdateInput): void {
  const { env } = input;
  const base = hasDefaultOptions(env) ? DEFAULT_UPDATER_OPTIONS : { ...updaterOptions(env), idKey: UNUSED_ID_KEY };
  const options = compileOptions(base).update({ condition: {}, updateConfig: { cloneMode: 'copy' } });
  const arrayFilters = input.arrayFilters ?? [];
  const mutations = Object.entries(modifier).map(([op, expr]) =>
    UPDATE_OPERATORS[op](expr as Doc, arrayFilters, options),
  );
  for (const doc of docs) mutations.forEach((mutate) => mutate(doc));
}

/**
 * An upsert that inserts checks field names as an insert does (MongoDB 5+), so it may `$set` a top-level field
 * named with a `$` (`$price`); mingo refuses those everywhere, an update of a stored document refuses them too.
 */
function isInsertedDollarField(entry: UpdateEntry, inserting: boolean): boolean {
  return inserting && entry.op === '$set' && entry.path.startsWith('$');
}

/** Applies the entries: mingo's updater, but for those it would misread, applied here. */
function applyEntries(docs: Doc[], entries: UpdateEntry[], input: UpdateInput, inserting: boolean): void {
  docs.forEach((doc) => checkPathsViable(doc, entries));
  const ours = (entry: UpdateEntry): boolean => isDocumentPull(entry) || isInsertedDollarField(entry, inserting);
  for (const modifier of mingoModifiers(entries.filter((entry) => !ours(entry)))) applyModifier(docs, modifier, input);
  for (const entry of entries.filter(ours)) {
    for (const doc of docs) {
      if (isDocumentPull(entry)) applyDocumentPull(doc, entry, mingoOptions(input.env));
      else setValue(doc, entry.path, entry.value);
    }
  }
}

function applyOperators(currents: Doc[], modifier: Doc, input: UpdateInput, filter: Doc, inserting: boolean): Doc[] {
  checkModifier(modifier);
  const { $setOnInsert, ...rest } = modifier;
  const operators = dedupeAddToSet(rest);
  const entries = updateEntries(operators);
  checkPathConflicts(isDoc($setOnInsert) && inserting ? updateEntries(modifier) : entries);
  checkArithmetic(currents, operators);
  const nexts = usesPositional(entries)
    ? positionalNexts(currents, entries, input, filter, inserting)
    : currents.map(privateCopy(input, entries));
  if (!usesPositional(entries)) applyEntries(nexts, entries, input, inserting); // positionalNexts applied them
  if (inserting && isDoc($setOnInsert)) applyEntries(nexts, updateEntries({ $set: $setOnInsert }), input, inserting);
  if (!inserting && nexts.some((next, i) => next._id === undefined && currents[i]._id !== undefined)) {
    throw immutableId(); // `$unset` or `$rename` of `_id`
  }
  return nexts;
}

/**
 * The documents after entries with a positional `$`: each `$` stands for the element the filter matched in the
 * document as it is (MongoDB records it while matching), so it is resolved there, before the copy, which then copies
 * only along the resolved paths instead of the whole document.
 */
function positionalNexts(currents: Doc[], entries: UpdateEntry[], input: UpdateInput, filter: Doc, inserting: boolean) {
  const condition = effectiveFilter(filter, input.env);
  const resolveIn = positionalResolver(entries, condition, compileOptions(filterOptions(input.env, condition)));
  return currents.map((current) => {
    const resolved = resolveIn(current);
    const next = privateCopy(input, resolved)(current);
    applyEntries([next], resolved, input, inserting);
    return next;
  });
}

/** How an operator update copies a current document before it mutates it (see `UpdateInput.sharesUnwritten`). */
function privateCopy(input: UpdateInput, entries: UpdateEntry[]): (current: Doc) => Doc {
  const deep = input.copy ?? cloneDoc;
  const paths = entries.flatMap(writtenPaths);
  if (!input.sharesUnwritten || paths.some((path) => path.includes('$'))) return deep;
  return (current) => copyAlong(current, paths) ?? deep(current);
}

function applyPipeline(currents: Doc[], input: UpdateInput, pipeline: Doc[]): Doc[] {
  return new Aggregator(pipeline, mingoOptions(input.env)).run(currents.map(input.copy ?? cloneDoc));
}

/**
 * The replacement document is the statement's own (deserialized for this command), so it is stored
 * without a copy; stored documents are never mutated in place.
 */
function replace(current: Doc, replacement: Doc): Doc {
  return withNumberTypesOf(replacement, { _id: current._id, ...replacement });
}

function immutableId(): MongoError {
  return new MongoError(
    'ImmutableField',
    "Performing an update on the path '_id' would modify the immutable field '_id'",
  );
}

function keepId(current: Doc, next: Doc, inserting: boolean): Doc {
  const withId =
    next._id === undefined && current._id !== undefined ? withNumberTypesOf(next, { _id: current._id, ...next }) : next;
  if (!inserting && !isEqual(withId._id, current._id)) {
    throw immutableId();
  }
  return withId;
}

/**
 * The documents after applying an update: operators (mingo updater), a pipeline (mingo Aggregator) or
 * a replacement. Never mutates `currents`. `inserting` (upserts) applies `$setOnInsert`.
 */
export function applyUpdates(currents: Doc[], input: UpdateInput, filter: Doc, inserting: boolean): Doc[] {
  const { update } = input;
  const nexts = Array.isArray(update)
    ? applyPipeline(currents, input, update)
    : isOperatorDoc(update)
      ? applyOperators(currents, update, input, filter, inserting)
      : currents.map((current) => replace(current, update));
  return nexts.map((next, i) => keepId(currents[i], next, inserting));
}

export function applyUpdate(current: Doc, input: UpdateInput, filter: Doc, inserting: boolean): Doc {
  return applyUpdates([current], input, filter, inserting)[0];
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
    inheritNumberTypes(condition, seed);
  };
  visit(filter);
  return seed;
}

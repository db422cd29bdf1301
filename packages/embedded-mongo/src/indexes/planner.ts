import { typeOf } from 'mingo/util';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import type { Bound, Index } from './index';

const MIN_DATE = new Date(-8.64e15);
const MAX_DATE = new Date(8.64e15);

/** The widest bounds of the value's type, so a one-sided range stays inside its type bracket. */
function typeBracket(value: unknown): [Bound, Bound] | undefined {
  if (typeof value === 'number') return [{ value: -Infinity, inclusive: true }, { value: Infinity, inclusive: true }];
  if (typeof value === 'string') return [{ value: '', inclusive: true }, { value: {}, inclusive: false }];
  if (value instanceof Date) return [{ value: MIN_DATE, inclusive: true }, { value: MAX_DATE, inclusive: true }];
  return undefined;
}

/** A value usable as an exact index key (no regex, document, array or null semantics to honour). */
function isPlainKey(value: unknown, collation: boolean): boolean {
  if (value === null || value === undefined || Array.isArray(value) || value instanceof RegExp || isDoc(value)) return false;
  if (collation && typeof value === 'string') return false;
  return typeOf(value) !== 'bsonregexp';
}

type Plan = { kind: 'eq'; values: unknown[] } | { kind: 'range'; lower: Bound; upper: Bound };

function planCondition(condition: unknown, collation: boolean): Plan | undefined {
  if (!isDoc(condition) || !Object.keys(condition).some((key) => key.startsWith('$'))) {
    return isPlainKey(condition, collation) ? { kind: 'eq', values: [condition] } : undefined;
  }
  if ('$eq' in condition) return planCondition(condition.$eq, collation);
  if (Array.isArray(condition.$in)) {
    const values = condition.$in as unknown[];
    return values.every((value) => isPlainKey(value, collation)) ? { kind: 'eq', values } : undefined;
  }
  return planRange(condition, collation);
}

function planRange(condition: Doc, collation: boolean): Plan | undefined {
  const lowerValue = condition.$gt ?? condition.$gte;
  const upperValue = condition.$lt ?? condition.$lte;
  const probe = lowerValue ?? upperValue;
  if (probe === undefined || !isPlainKey(probe, collation)) return undefined;
  const bracket = typeBracket(probe);
  if (!bracket) return undefined;
  const lower = lowerValue === undefined ? bracket[0] : { value: lowerValue, inclusive: '$gte' in condition };
  const upper = upperValue === undefined ? bracket[1] : { value: upperValue, inclusive: '$lte' in condition };
  return { kind: 'range', lower, upper };
}

function usable(index: Index): boolean {
  return !index.spec.sparse && !index.spec.partialFilterExpression && !index.spec.hidden;
}

function run(collection: Collection, index: Index, plan: Plan): Doc[] {
  const ids =
    plan.kind === 'eq'
      ? index.fields.length === 1
        ? plan.values.flatMap((value) => index.lookup([value]))
        : plan.values.flatMap((value) => index.scan({ value, inclusive: true }, { value, inclusive: true }))
      : index.scan(plan.lower, plan.upper);
  const docs: Doc[] = [];
  for (const id of new Set(ids)) {
    const doc = collection.get(id);
    if (doc) docs.push(doc);
  }
  return docs;
}

/** The first index whose leading field has an equality, `$in` or range condition in the filter, with its plan. */
export function chooseIndex(collection: Collection, filter: Doc, collation?: Doc): { index: Index; plan: Plan } | undefined {
  const collated = collation !== undefined && collation.locale !== 'simple';
  const conditions = topLevelConditions(filter);
  for (const index of collection.indexes.values()) {
    const condition = conditions.get(index.fields[0]);
    const plan = usable(index) && condition !== undefined ? planCondition(condition, collated) : undefined;
    if (plan) return { index, plan };
  }
  return undefined;
}

/**
 * The documents that may match `filter`: narrowed through the index `chooseIndex` picks, else every
 * document. Callers always re-check candidates with the full filter.
 */
export function candidates(collection: Collection, filter: Doc, collation?: Doc): Iterable<Doc> {
  const chosen = chooseIndex(collection, filter, collation);
  return chosen ? run(collection, chosen.index, chosen.plan) : collection.docs.values();
}

/** Field conditions that every match must satisfy: the filter's own and those of its `$and` clauses. */
function topLevelConditions(filter: Doc): Map<string, unknown> {
  const conditions = new Map<string, unknown>();
  const clauses = Array.isArray(filter.$and) ? [filter, ...filter.$and.filter(isDoc)] : [filter];
  for (const clause of clauses) {
    for (const [field, condition] of Object.entries(clause)) if (!field.startsWith('$') && !conditions.has(field)) conditions.set(field, condition);
  }
  return conditions;
}

import { typeOf } from 'mingo/util';
import { isBsonNumber, isDecimal } from '../bson/decimal-number';
import { isDoc, type Doc } from '../types';
import { FULL_INTERVAL, intersectAll, pointInterval, unionIntervals, type Interval } from './interval';

/** What one condition on a field tells an index scan. */
export interface FieldPredicate {
  /** Ordered interval list: every matching document has a key of the field inside it. */
  intervals: Interval[];
  /** Keys inside the intervals match the condition exactly (no re-check needed on a non-multikey index). */
  exact: boolean;
  /** A matching document has the field (a sparse index holds it). */
  requiresField: boolean;
}

type Predicate = FieldPredicate | undefined;
type FieldPredicates = Map<string, FieldPredicate[]>;

/** The conditions every match must satisfy, per field, and the `$or` whose branches may each use an index. */
export interface FilterAnalysis {
  fields: FieldPredicates;
  /** Whether every condition of the filter is a field predicate above (no other operator or field). */
  allIndexable: boolean;
  or?: Doc[];
}

const MIN_DATE = new Date(-8.64e15);
const MAX_DATE = new Date(8.64e15);
/** Value types an equality can seek as a point: their keys compare exactly as the query compares them. */
const POINT_TYPES = new Set(['number', 'decimal128', 'long', 'string', 'boolean', 'date', 'objectid', 'binary']);

/** The widest interval of the value's type: one-sided ranges stay inside their type, as MongoDB brackets them. */
function typeBracket(value: unknown): Interval | undefined {
  if (typeof value === 'number' || isBsonNumber(value))
    return { low: -Infinity, high: Infinity, lowInclusive: true, highInclusive: true };
  if (typeof value === 'string') return { low: '', high: {}, lowInclusive: true, highInclusive: false };
  if (value instanceof Date) return { low: MIN_DATE, high: MAX_DATE, lowInclusive: true, highInclusive: true };
  return undefined;
}

/**
 * A value the index can look up as a point: a scalar (strings only without collation: index keys hold raw
 * strings), or null (missing fields index as null too; documents are re-checked).
 */
function isPointValue(value: unknown, collated: boolean): boolean {
  if (value === null) return true;
  if (typeof value === 'string') return !collated;
  return POINT_TYPES.has(typeOf(value));
}

/** NaN of either numeric type: index keys order it apart from the other numbers (see `typePredicate`). */
function isNaNValue(value: unknown): boolean {
  return Number.isNaN(value) || (isDecimal(value) && value.toString() === 'NaN');
}

function equality(value: unknown, collated: boolean): FieldPredicate | undefined {
  if (value instanceof RegExp) return regexPredicate(value.source, value.flags, collated);
  if (!isPointValue(value, collated)) return undefined;
  const exact = value !== null && !isNaNValue(value);
  return { intervals: [pointInterval(value)], exact, requiresField: value !== null };
}

function inList(values: unknown[], collated: boolean): FieldPredicate | undefined {
  const predicates = values.map((value) => equality(value, collated));
  if (predicates.length === 0 || predicates.some((predicate) => predicate === undefined)) return undefined;
  const defined = predicates as FieldPredicate[];
  return {
    intervals: unionIntervals(defined.flatMap((predicate) => predicate.intervals)),
    exact: defined.every((predicate) => predicate.exact),
    requiresField: defined.every((predicate) => predicate.requiresField),
  };
}

function range(op: string, value: unknown, collated: boolean): FieldPredicate | undefined {
  const bracket = typeBracket(value);
  if (!bracket || (collated && typeof value === 'string') || isNaNValue(value)) return undefined;
  const interval =
    op === '$gt' || op === '$gte'
      ? { ...bracket, low: value, lowInclusive: op === '$gte' }
      : { ...bracket, high: value, highInclusive: op === '$lte' };
  return { intervals: [interval], exact: true, requiresField: true };
}

/** Characters with a meaning in a regular expression: a literal prefix ends before them. */
const REGEX_META = new Set([...'\\^$.|?*+()[]{}']);
const OPTIONAL_QUANTIFIERS = new Set(['?', '*', '{']);

/**
 * The literal prefix of an anchored regex (`^abc`, `^a\.b`), or undefined when the regex is not anchored
 * at the start of the string or has an alternation.
 */
function regexPrefix(source: string, flags: string): string | undefined {
  if (!source.startsWith('^') || /[imx]/.test(flags) || source.includes('|')) return undefined;
  let prefix = '';
  for (let i = 1; i < source.length; i++) {
    let char = source[i];
    if (char === '\\') {
      const escaped = source[i + 1];
      if (escaped === undefined || /[0-9A-Za-z]/.test(escaped)) return prefix;
      char = escaped;
      i++;
    } else if (REGEX_META.has(char)) {
      return OPTIONAL_QUANTIFIERS.has(char) ? prefix.slice(0, -1) : prefix;
    }
    if (OPTIONAL_QUANTIFIERS.has(source[i + 1] ?? '')) return prefix;
    prefix += char;
  }
  return prefix;
}

/** The first string after every string starting with the prefix, or MAX_KEY-like end of the string type. */
function prefixEnd(prefix: string): unknown {
  let end = prefix;
  while (end.length > 0) {
    const last = end.charCodeAt(end.length - 1);
    if (last < 0xffff) return end.slice(0, -1) + String.fromCharCode(last + 1);
    end = end.slice(0, -1);
  }
  return {};
}

function regexPredicate(source: string, flags: string, collated: boolean): FieldPredicate | undefined {
  if (collated) return undefined;
  const prefix = regexPrefix(source, flags);
  const strings = typeBracket('') as Interval;
  const intervals = [prefix === undefined ? strings : { ...strings, low: prefix, high: prefixEnd(prefix) }];
  return { intervals, exact: false, requiresField: true };
}

function regexOperator(condition: Doc, collated: boolean): FieldPredicate | undefined {
  const pattern = condition.$regex;
  const options = typeof condition.$options === 'string' ? condition.$options : '';
  if (pattern instanceof RegExp) return regexPredicate(pattern.source, pattern.flags + options, collated);
  return typeof pattern === 'string' ? regexPredicate(pattern, options, collated) : undefined;
}

/** Predicates of one operator of a condition (`{$gt: 1}` → one); none when it cannot bound an index. */
function operatorPredicate(op: string, operand: unknown, condition: Doc, collated: boolean): Predicate {
  switch (op) {
    case '$eq':
      // `$eq` with a regex matches stored regexes only, not strings.
      return operand instanceof RegExp ? undefined : equality(operand, collated);
    case '$in':
      return Array.isArray(operand) ? inList(operand, collated) : undefined;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return range(op, operand, collated);
    case '$regex':
      return regexOperator(condition, collated);
    case '$exists':
      // `$exists: false` matches exactly the documents whose key is null, among others.
      if (!operand) return { intervals: [pointInterval(null)], exact: false, requiresField: false };
      return { intervals: [FULL_INTERVAL], exact: false, requiresField: true };
    case '$all':
      return allOf(operand, collated);
    case '$type':
      return typePredicate(operand);
  }
  return undefined;
}

/** `$all`: every match holds its first value (a point, as MongoDB bounds it); the others are re-checked. */
function allOf(values: unknown, collated: boolean): Predicate {
  if (!Array.isArray(values) || values.length === 0 || values[0] instanceof RegExp) return undefined;
  const first = equality(values[0], collated);
  return first && { ...first, exact: false };
}

/**
 * A value of each BSON type (by name or number) whose values index within one bracket: numbers of every
 * width are JS numbers here (a Decimal128 or a wide int64 indexes among them, but `$type` by name is not narrowed to it), strings, dates.
 */
const TYPE_SAMPLES = new Map<unknown, unknown>([
  ['number', 0],
  ['double', 0],
  ['int', 0],
  ['long', 0],
  [1, 0],
  [16, 0],
  [18, 0],
  ['string', ''],
  [2, ''],
  ['date', new Date(0)],
  [9, new Date(0)],
]);

/** `$type`: the bracket of the type (every string, every number…), or the null key for `null`. */
function typePredicate(type: unknown): Predicate {
  if (type === 'null' || type === 10) return { intervals: [pointInterval(null)], exact: false, requiresField: true };
  const sample = TYPE_SAMPLES.get(type);
  if (sample === undefined) return undefined;
  const bracket = typeBracket(sample) as Interval;
  // NaN is a number too: its keys sort before -Infinity.
  const interval = typeof sample === 'number' ? { ...bracket, low: NaN } : bracket;
  return { intervals: [interval], exact: false, requiresField: true };
}

const NON_NARROWING = new Set(['$options', '$comment']);

/** Adds the predicates of `field: condition`; returns whether the whole condition became predicates. */
function addCondition(fields: FieldPredicates, field: string, condition: unknown, collated: boolean): boolean {
  const add = (path: string, predicate: Predicate): boolean => {
    if (predicate) fields.set(path, [...(fields.get(path) ?? []), predicate]);
    return predicate !== undefined;
  };
  const isOperatorDoc = isDoc(condition) && Object.keys(condition).some((key) => key.startsWith('$'));
  if (!isOperatorDoc) return add(field, equality(condition, collated));
  let complete = true;
  for (const [op, operand] of Object.entries(condition)) {
    if (NON_NARROWING.has(op)) continue;
    if (op === '$elemMatch' && isDoc(operand)) {
      addElemMatch(fields, field, operand, collated);
      complete = false;
    } else if (!add(field, operatorPredicate(op, operand, condition, collated))) {
      complete = false;
    }
  }
  return complete;
}

/**
 * `$elemMatch` bounds: `{a: {$elemMatch: {$gt: 1, $lt: 5}}}` one element in both ranges (intersected),
 * `{a: {$elemMatch: {b: 1}}}` an element whose `b` is 1 (a predicate on `a.b`). Never exact.
 */
function addElemMatch(fields: FieldPredicates, field: string, operand: Doc, collated: boolean): void {
  const inner: FieldPredicates = new Map();
  const isValueForm = Object.keys(operand).every((key) => key.startsWith('$'));
  // Elements that are arrays index as whole arrays: a nested `$elemMatch` cannot bound them.
  if (isValueForm && '$elemMatch' in operand) return;
  if (isValueForm) {
    addCondition(inner, field, operand, collated);
    const predicates = inner.get(field) ?? [];
    // One element satisfies every operator: the intervals intersect even on a multikey field.
    if (predicates.length) fields.set(field, [...(fields.get(field) ?? []), intersection(predicates)]);
    return;
  }
  for (const [sub, condition] of Object.entries(operand)) {
    if (!sub.startsWith('$')) addCondition(inner, `${field}.${sub}`, condition, collated);
  }
  for (const [path, predicates] of inner) {
    const loose = predicates.map((predicate) => ({ ...predicate, exact: false }));
    fields.set(path, [...(fields.get(path) ?? []), ...loose]);
  }
}

function intersection(predicates: FieldPredicate[]): FieldPredicate {
  const intervals = intersectAll(predicates.map((predicate) => predicate.intervals));
  return { intervals, exact: false, requiresField: predicates.some((predicate) => predicate.requiresField) };
}

function isSingleClause(clauses: unknown): clauses is [Doc] {
  return Array.isArray(clauses) && clauses.length === 1 && isDoc(clauses[0]);
}

/**
 * Splits a filter into per-field predicates (its own fields and those of its `$and` clauses) and the
 * first `$or` (a one-branch `$or` is an `$and`). `collated`: string bounds are unusable.
 */
export function analyzeFilter(filter: Doc, collated: boolean): FilterAnalysis {
  const analysis: FilterAnalysis = { fields: new Map(), allIndexable: true };
  const visit = (clause: Doc): void => {
    for (const [key, condition] of Object.entries(clause)) {
      if (key === '$comment') continue;
      if (key === '$and' && Array.isArray(condition)) condition.filter(isDoc).forEach(visit);
      else if (key === '$or' && isSingleClause(condition)) visit(condition[0]);
      else if (key === '$or' && Array.isArray(condition) && !analysis.or) {
        analysis.or = condition.filter(isDoc);
        analysis.allIndexable = false;
      } else if (key.startsWith('$') || !addCondition(analysis.fields, key, condition, collated)) {
        analysis.allIndexable = false;
      }
    }
  };
  visit(filter);
  return analysis;
}

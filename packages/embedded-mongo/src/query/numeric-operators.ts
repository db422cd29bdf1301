import { $eq as mingoEq, $gt, $gte, $in as mingoIn, $lt, $lte } from 'mingo/operators/query';
import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import { bsonNumbersSeen, compareNumeric, isBsonNumber, isNumeric } from '../bson/decimal-number';
import type { Doc } from '../types';

type Predicate = (obj: Doc) => boolean;
type QueryOperator = (selector: string, value: unknown, options: Options) => Predicate;
type Numeric = number | NonNullable<Parameters<typeof compareNumeric>[0]>;

/**
 * mingo compares a Decimal128, or an int64 beyond ±2^53 (a `Long`; bson classes to it), only with another of its
 * class, by its text: `{a: 1}` would not match `Decimal128("1.0")` nor `{a: {$gt: Decimal128("9")}}` match
 * `Decimal128("10")`. MongoDB compares every numeric type by value. These operators take mingo's test and add the
 * comparisons where such a number is on either side, by exact value (`bson/decimal-number.ts`). Conditions on other
 * values are mingo's, untouched; and while this thread has decoded none of them (`bsonNumbersSeen`), a condition on
 * a JS number is mingo's test alone.
 */

/** The values of the field a condition compares: the value, or the elements of the arrays on its path. */
function fieldValues(obj: Doc, selector: string): unknown[] {
  const value = resolve(obj, selector, { unwrapArray: true });
  if (!Array.isArray(value)) return [value];
  let depth = 0;
  for (let dot = selector.indexOf('.'); dot !== -1; dot = selector.indexOf('.', dot + 1)) depth++;
  return value.flat(depth);
}

/** Whether any value of the field is a number that, compared with one of `operands`, passes `test`. */
function someNumeric(obj: Doc, selector: string, operands: Numeric[], test: (a: Numeric, b: Numeric) => boolean) {
  return fieldValues(obj, selector).some(
    (value) =>
      isNumeric(value) &&
      operands.some((operand) => (isBsonNumber(value) || isBsonNumber(operand)) && test(value, operand)),
  );
}

const equalNumbers = (a: Numeric, b: Numeric): boolean => compareNumeric(a, b) === 0;

/**
 * mingo's test, or else the same condition on the numbers where a decimal or `Long` takes part. mingo compares two of
 * them by their text, which answers equality (one text, one value) but not order: a range on one is ours alone.
 */
function withDecimals(mingoTest: QueryOperator, operands: (value: unknown) => unknown[], test: typeof equalNumbers) {
  return ((selector, value, options) => {
    const numbers = operands(value).filter(isNumeric);
    if (numbers.length === 0) return mingoTest(selector, value, options);
    const wideOperand = numbers.some(isBsonNumber);
    const ordered = test !== equalNumbers;
    const plain = wideOperand && ordered ? () => false : mingoTest(selector, value, options);
    return (obj) => plain(obj) || ((wideOperand || bsonNumbersSeen()) && someNumeric(obj, selector, numbers, test));
  }) as QueryOperator;
}

/**
 * The order of two numbers for a range condition: NaN only meets NaN, through `$gte`/`$lte` (it sorts before every
 * number but a range on numbers excludes it, as MongoDB's index bounds do).
 */
function inRange(outcome: (comparison: number) => boolean, inclusive: boolean) {
  return (a: Numeric, b: Numeric): boolean => {
    const comparison = compareNumeric(a, b);
    const nan = compareNumeric(a, Number.NaN) === 0 || compareNumeric(b, Number.NaN) === 0;
    return nan ? inclusive && comparison === 0 : outcome(comparison);
  };
}

const single = (value: unknown): unknown[] => [value];
const listed = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const $eq = withDecimals(mingoEq, single, equalNumbers);
const $in = withDecimals(mingoIn, listed, equalNumbers);

export const numericOperators = {
  $eq,
  $ne: ((selector, value, options) => {
    const equal = $eq(selector, value, options);
    return (obj) => !equal(obj);
  }) as QueryOperator,
  $in,
  $nin: ((selector, value, options) => {
    const member = $in(selector, value, options);
    return (obj) => !member(obj);
  }) as QueryOperator,
  $gt: withDecimals(
    $gt,
    single,
    inRange((c) => c > 0, false),
  ),
  $gte: withDecimals(
    $gte,
    single,
    inRange((c) => c >= 0, true),
  ),
  $lt: withDecimals(
    $lt,
    single,
    inRange((c) => c < 0, false),
  ),
  $lte: withDecimals(
    $lte,
    single,
    inRange((c) => c <= 0, true),
  ),
};

import {
  $avg as mingoAvg,
  $max as mingoMax,
  $min as mingoMin,
  $push,
  $sum as mingoSum,
} from 'mingo/operators/accumulator';
import { evalExpr } from 'mingo/core';
import { $add as mingoAdd } from 'mingo/operators/expression';
import { compareKeys } from '../indexes/interval';
import { Long } from 'bson';
import {
  addExact,
  bsonNumbersSeen,
  rounded,
  divideExact,
  exactNumber,
  isBsonNumber,
  isDecimal,
  isNumeric,
  to34Digits,
  toDecimal128,
  type ExactNumber,
} from '../bson/decimal-number';

const ZERO: ExactNumber = { negative: false, coefficient: 0n, exponent: 0 };

/**
 * The sum of the numbers among `values` as MongoDB's `$sum` makes it once a decimal takes part: the decimals added
 * in decimal arithmetic (each sum rounded to 34 digits), the other numbers apart (exactly while they are integers,
 * else as a double), their total converted as a double to a 34-digit decimal (1 becomes
 * 1.000000000000000000000000000000000) and added last. MongoDB adds the other numbers in double-double precision,
 * here integers exactly and doubles as doubles.
 */
function decimalSum(values: unknown[]): { sum: ExactNumber; count: number } {
  let decimals = ZERO;
  let integers = 0n;
  let doubles = 0;
  let count = 0;
  for (const value of values) {
    if (isDecimal(value)) decimals = rounded(addExact(decimals, exactNumber(value)));
    else if (typeof value === 'number' && Number.isInteger(value)) integers += BigInt(value);
    else if (typeof value === 'number') doubles += value;
    else if (value instanceof Long) integers += value.toBigInt();
    else continue;
    count++;
  }
  const others: ExactNumber =
    doubles === 0
      ? { negative: integers < 0n, coefficient: integers < 0n ? -integers : integers, exponent: 0 }
      : exactNumber(doubles + Number(integers));
  return { sum: rounded(addExact(decimals, to34Digits(others))), count };
}

type Accumulator = (
  collection: Parameters<typeof mingoSum>[0],
  expr: unknown,
  options: Parameters<typeof mingoSum>[2],
) => unknown;

/** `$sum` and `$avg` accumulators: mingo's over numbers; a Decimal128 among the inputs makes the result one. */
export const $sum: Accumulator = (collection, expr, options) => {
  if (typeof expr === 'number') return mingoSum(collection, expr, options);
  const values = $push(collection, expr, options);
  return values.some(isDecimal) ? toDecimal128(decimalSum(values).sum) : plainSum(values);
};

export const $avg: Accumulator = (collection, expr, options) => {
  const values = $push(collection, expr, options);
  if (!values.some(isDecimal)) return mingoAvg(values, null, options);
  const { sum, count } = decimalSum(values);
  return toDecimal128(divideExact(sum, count));
};

/** mingo's sum: of the numbers, NaN skipped. */
function plainSum(values: unknown[]): number {
  let sum = 0;
  for (const value of values) if (typeof value === 'number' && !Number.isNaN(value)) sum += value;
  return sum;
}

/**
 * `$min` and `$max` accumulators: mingo's, which would rank a decimal or `Long` after every type, unless one is
 * among the values: then the least or greatest of the values that are not null or missing, in MongoDB's order of
 * values (`compareKeys`: numbers by value).
 */
function extreme(direction: 1 | -1, mingoExtreme: typeof mingoMax): Accumulator {
  return (collection, expr, options) => {
    const values = $push(collection, expr, options);
    if (!values.some(isBsonNumber)) return mingoExtreme(values as Parameters<typeof mingoMax>[0], null, options);
    const present = values.filter((value) => value !== null && value !== undefined);
    if (present.length === 0) return null;
    return present.reduce((best, value) => (compareKeys(value, best) * direction > 0 ? value : best));
  };
}

export const $max = extreme(1, mingoMax);
export const $min = extreme(-1, mingoMin);

/**
 * The `$add` expression: mingo's, which refuses a Decimal128. With one among the numbers (and no date), the sum is
 * a Decimal128 made as the `$sum` accumulator makes it (MongoDB's `ExpressionAdd` adds the same way); a null or
 * missing operand gives null. Other operands are mingo's, given as literals (they are evaluated once here).
 */
export const $add = (
  obj: Parameters<typeof mingoAdd>[0],
  expr: unknown,
  options: Parameters<typeof mingoAdd>[2],
): unknown => {
  if (!bsonNumbersSeen()) return mingoAdd(obj, expr, options);
  const args = evalExpr(obj, expr, options);
  const decimal = Array.isArray(args) && args.some(isDecimal) && !args.some((arg) => arg instanceof Date);
  if (!decimal) return mingoAdd(obj, Array.isArray(args) ? args.map(literal) : literal(args), options);
  if (args.some((arg) => arg === null || arg === undefined)) return null;
  if (!args.every(isNumeric)) return mingoAdd(obj, args.map(literal), options);
  return toDecimal128(decimalSum(args).sum);
};

const literal = (value: unknown): { $literal: unknown } => ({ $literal: value });

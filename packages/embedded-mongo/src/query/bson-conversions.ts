import { evalExpr } from 'mingo/core';
import * as expressionOperators from 'mingo/operators/expression';
import { typeOf } from 'mingo/util';

type ExpressionOperator = typeof expressionOperators.$toString;

/** BSON values that `$toString` spells as MongoDB does, which mingo (knowing only JS values) refuses. */
const BSON_SPELLINGS: Record<string, (value: { toString(): string; toHexString?(): string }) => string> = {
  objectid: (value) => value.toHexString?.() ?? value.toString(),
  decimal128: (value) => value.toString(),
};

/** `$toString` with MongoDB's conversions of ObjectId (24 hex digits) and Decimal128, mingo's for the rest. */
export const $toString: ExpressionOperator = (obj, expr, options) => {
  const value = evalExpr(obj, expr, options) as { toString(): string } | null | undefined;
  const spell = value !== null && value !== undefined ? BSON_SPELLINGS[typeOf(value).toLowerCase()] : undefined;
  return spell ? spell(value as never) : expressionOperators.$toString(obj, { $literal: value }, options);
};

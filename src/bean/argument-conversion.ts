import { HttpException } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { codedError } from '../common/errors/coded-exception';
import { validationFailed } from '../common/errors/validation-errors';
import { isPlainRecord } from '../common/plain-object';
import { MapOfParamType, ParamType, paramTypeName, ScalarParamType } from './param-types';

/** Checks and converts one argument of one declared type; built once per parameter at start-up. */
export interface ArgumentConverter {
  readonly typeName: string;
  /** Whether `value` has the JSON shape this type accepts (picks among overloads of the same arity). */
  accepts: (value: unknown) => boolean;
  /** @throws HttpException 400 ARGUMENT_MISMATCH naming the argument index, the expected and the received type */
  convert(value: unknown, index: number): unknown;
}

const JAVA_INT_MIN = -(2 ** 31);
const JAVA_INT_MAX = 2 ** 31 - 1;
const INTEGER_TEXT = /^-?\d{1,10}$/;

/** The JSON type of a value as error messages name it. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isJavaInt(value: unknown): boolean {
  if (typeof value === 'string') return INTEGER_TEXT.test(value) && isJavaInt(Number(value));
  return Number.isInteger(value) && (value as number) >= JAVA_INT_MIN && (value as number) <= JAVA_INT_MAX;
}

const SCALAR_RULES: Record<
  ScalarParamType,
  { accepts: (value: unknown) => boolean; convert: (value: unknown) => unknown }
> = {
  String: { accepts: (value) => typeof value === 'string', convert: (value) => value },
  int: { accepts: isJavaInt, convert: (value) => Number(value) },
  // Strings "true"/"false" are refused on purpose: JSON has booleans, and accepting text invites "yes"/"1" next.
  boolean: { accepts: (value) => typeof value === 'boolean', convert: (value) => value },
  Map: { accepts: isPlainRecord, convert: (value) => value },
  IdList: {
    accepts: (value) => Array.isArray(value) && value.every((id) => typeof id === 'string'),
    convert: (value) => value,
  },
};

function mismatch(typeName: string, value: unknown, index: number): HttpException {
  const received = jsonTypeOf(value);
  const message = `Argument ${index}: expected ${typeName}, received ${received}`;
  return codedError('ARGUMENT_MISMATCH', message, [
    { field: `args[${index}]`, message: `expected ${typeName}, received ${received}` },
  ]);
}

function scalarConverter(type: ScalarParamType): ArgumentConverter {
  const rule = SCALAR_RULES[type];
  return {
    typeName: type,
    accepts: rule.accepts,
    convert(value, index) {
      if (!rule.accepts(value)) throw mismatch(type, value, index);
      return rule.convert(value);
    },
  };
}

function dtoConverter(type: MapOfParamType): ArgumentConverter {
  const typeName = paramTypeName(type);
  return {
    typeName,
    accepts: isPlainRecord,
    convert(value, index) {
      if (!isPlainRecord(value)) throw mismatch(typeName, value, index);
      const dto = plainToInstance(type.dto, value, { exposeDefaultValues: true });
      const errors = validateSync(dto, { whitelist: true });
      if (errors.length > 0) throw validationFailed(errors, `args[${index}]`);
      return dto;
    },
  };
}

export function converterFor(type: ParamType): ArgumentConverter {
  return typeof type === 'string' ? scalarConverter(type) : dtoConverter(type);
}

/** Whether one JSON value could be accepted by both types (then two overloads would be ambiguous). */
export function typesOverlap(a: ParamType, b: ParamType): boolean {
  const kind = (type: ParamType): string => (typeof type === 'string' ? type : 'Map');
  const pair = new Set([kind(a), kind(b)]);
  return pair.size === 1 || (pair.has('String') && pair.has('int'));
}

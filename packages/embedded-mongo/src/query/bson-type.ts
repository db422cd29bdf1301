import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import { numberTypesOf } from '../bson/number-types';
import { isDoc, type Doc } from '../types';

const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);

/** Aliases and numeric codes of `$type`, as MongoDB names them. */
const ALIASES: Record<string, string> = {
  1: 'double',
  2: 'string',
  3: 'object',
  4: 'array',
  5: 'binData',
  6: 'undefined',
  7: 'objectId',
  8: 'bool',
  9: 'date',
  10: 'null',
  11: 'regex',
  13: 'javascript',
  16: 'int',
  17: 'timestamp',
  18: 'long',
  19: 'decimal',
  [-1]: 'minKey',
  127: 'maxKey',
};

const BSON_CLASS_TYPES: Record<string, string> = {
  ObjectId: 'objectId',
  ObjectID: 'objectId',
  Binary: 'binData',
  Decimal128: 'decimal',
  Long: 'long',
  Int32: 'int',
  Double: 'double',
  Timestamp: 'timestamp',
  MinKey: 'minKey',
  MaxKey: 'maxKey',
  Code: 'javascript',
  BSONRegExp: 'regex',
  BSONSymbol: 'symbol',
};

function numberType(value: number, remembered: string | undefined): string {
  if (remembered) return remembered;
  if (!Number.isInteger(value)) return 'double';
  return value >= INT32_MIN && value <= INT32_MAX ? 'int' : 'long';
}

/** The BSON type name of a value; `remembered` is the stored number type of its field, if any. */
export function bsonTypeOf(value: unknown, remembered?: string): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return numberType(value, remembered);
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (value instanceof RegExp) return 'regex';
  const bsonType = (value as { _bsontype?: string })._bsontype;
  return (bsonType && BSON_CLASS_TYPES[bsonType]) ?? 'object';
}

const NUMERIC = new Set(['int', 'long', 'double', 'decimal']);

export function matchesType(type: string, wanted: unknown): boolean {
  const name = ALIASES[String(wanted)] ?? String(wanted);
  return name === 'number' ? NUMERIC.has(type) : name === type;
}

/** Candidate values of a path with the number type remembered by their containing object. */
function typedValues(obj: Doc, selector: string): Array<[unknown, string | undefined]> {
  const dot = selector.lastIndexOf('.');
  const field = selector.slice(dot + 1);
  const parent = dot < 0 ? obj : resolve(obj, selector.slice(0, dot));
  const parents = Array.isArray(parent) && !/^\d+$/.test(field) ? parent : [parent];
  return parents.flatMap((container): Array<[unknown, string | undefined]> => {
    if (!isDoc(container) && !Array.isArray(container)) return [];
    const value = (container as Doc)[field];
    const remembered = numberTypesOf(container)?.[field];
    const elements = Array.isArray(value)
      ? value.map((element, i): [unknown, string | undefined] => [element, numberTypesOf(value)?.[i]])
      : [];
    return [[value, remembered], ...elements];
  });
}

/** `$type` with BSON type names (mingo's `$type` only knows JS types). */
export function $bsonType(selector: string, wanted: unknown, _options: Options): (obj: Doc) => boolean {
  const names = Array.isArray(wanted) ? wanted : [wanted];
  return (obj) =>
    typedValues(obj, selector).some(
      ([value, remembered]) =>
        value !== undefined && names.some((name) => matchesType(bsonTypeOf(value, remembered), name)),
    );
}

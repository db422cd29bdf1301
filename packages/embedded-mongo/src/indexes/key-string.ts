import { typeOf } from 'mingo/util';

type Canonical = string | number | boolean | null | Canonical[];

/**
 * A JSON-able canonical form of a BSON value such that values MongoDB considers equal (1, 1.0,
 * NumberLong(1); equal ObjectIds) produce the same string. Used as the hash key of index entries.
 */
function canonical(value: unknown): Canonical {
  if (value === undefined || value === null) return null;
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return ['n', Object.is(value, -0) ? 0 : value];
    case 'bigint':
      return ['n', Number(value)];
    case 'boolean':
      return value;
    default:
      break; // objects, below
  }
  if (Array.isArray(value)) return ['a', ...value.map(canonical)];
  if (value instanceof Date) return ['d', value.getTime()];
  if (value instanceof RegExp) return ['r', value.source, value.flags];
  const type = typeOf(value);
  if (type === 'object') return ['o', ...Object.entries(value).map(([k, v]): Canonical => [k, canonical(v)])];
  if (type === 'long' || type === 'int32' || type === 'double') return ['n', Number(value)];
  return [type, String(value)];
}

export function keyString(values: unknown[]): string {
  return JSON.stringify(values.map(canonical));
}

import type { Binary, BSONRegExp, Code, DBRef, Decimal128, Long } from 'bson';
import { typeOf } from 'mingo/util';
import { canonicalDecimal } from '../bson/decimal-number';

type Canonical = string | number | boolean | null | Canonical[];

/**
 * A JSON-able canonical form of a BSON value such that values MongoDB considers equal (1, 1.0,
 * NumberLong(1), Decimal128("1.00"); equal ObjectIds) produce the same string, and values it tells apart never do. Used as the
 * hash key of index entries and, through `idOf`, as the stored key of each document: a change to the form
 * of any value changes where documents are stored (see "On-disk format and upgrades" in the README).
 */
function canonical(value: unknown): Canonical {
  if (value === undefined || value === null) return null;
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return canonicalNumber(value);
    case 'bigint':
      return canonicalInteger(value);
    case 'boolean':
      return value;
    default:
      break; // objects, below
  }
  if (Array.isArray(value)) return ['a', ...value.map(canonical)];
  if (value instanceof Date) return ['d', value.getTime()];
  if (value instanceof RegExp) return ['r', value.source, value.flags];
  const type = typeOf(value);
  if (type === 'object') return canonicalObject(value as Record<string, unknown>);
  return canonicalBsonValue(type, value);
}

/** BSON classes other than numbers wrapped by `promoteValues: false`; most are told apart by their `String`. */
function canonicalBsonValue(type: string, value: unknown): Canonical {
  switch (type) {
    case 'objectid':
      return [type, String(value)];
    case 'int32':
    case 'double':
      return canonicalNumber(Number(value));
    case 'long': {
      // Within ±2^53 `toNumber` is exact; beyond, it rounds, so those go through their exact value.
      const number = (value as Long).toNumber();
      return Number.isSafeInteger(number) ? ['n', number] : canonicalInteger((value as Long).toBigInt());
    }
    // A decimal is keyed as the number it equals (Decimal128("1.00") as 1): see `canonicalDecimal`.
    case 'decimal128': {
      const number = canonicalDecimal(value as Decimal128);
      return typeof number === 'number' ? canonicalNumber(number) : ['n', number];
    }
    // MongoDB compares BinData by length, subtype and bytes: a UUID is a Binary of subtype 4 (`String` decodes bytes).
    case 'binary':
    case 'uuid':
      return ['binary', (value as Binary).sub_type, (value as Binary).toString('base64')];
    case 'code': {
      const { code, scope } = value as Code;
      return scope ? ['code', code, canonicalObject(scope)] : ['code', code];
    }
    // A DBRef is a document `{ $ref, $id, $db?, ...fields }` to MongoDB, and is compared as one.
    case 'dbref': {
      const { collection, oid, db, fields } = value as DBRef;
      return canonicalObject({ $ref: collection, $id: oid, ...(db === undefined ? {} : { $db: db }), ...fields });
    }
    case 'bsonregexp':
      return ['r', (value as BSONRegExp).pattern, (value as BSONRegExp).options];
    default:
      // Timestamp, BSONSymbol: `String` is exact; MinKey and MaxKey: one value each.
      return [type, String(value)];
  }
}

function canonicalObject(value: Record<string, unknown>): Canonical {
  return ['o', ...Object.entries(value).map(([k, v]): Canonical => [k, canonical(v)])];
}

/** JSON writes -0 as 0, as wanted, but NaN and ±Infinity all as `null`: those are kept apart by name. */
function canonicalNumber(value: number): Canonical {
  return Number.isFinite(value) ? ['n', value] : ['n', String(value)];
}

/** An int64 equals the double of the same value; one that no double holds exactly is written out in digits. */
function canonicalInteger(value: bigint): Canonical {
  const number = Number(value);
  return BigInt(number) === value ? ['n', number] : ['n', value.toString()];
}

export function keyString(values: unknown[]): string {
  return JSON.stringify(values.map(canonical));
}

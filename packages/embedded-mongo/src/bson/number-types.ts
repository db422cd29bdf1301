import { Double, Long, type Binary } from 'bson';
import { comparableBinary } from './comparable-binary';
import { noteBsonNumber } from './decimal-number';

/**
 * Numbers are handled as JS numbers (mingo computes with them), but BSON distinguishes int32, int64
 * and double. A JS number serializes back as int32 when integral, so the two lossy cases, integral
 * doubles and int64s, are remembered per container (object or array) under this symbol and restored
 * on serialization through a `toBSON` hook. Both are non-enumerable, invisible to mingo.
 */
const NUMBER_TYPES = Symbol('numberTypes');

type NumberType = 'double' | 'long';
type Container = Record<string, unknown> | unknown[];
type Hints = Record<string, NumberType>;

export function numberTypesOf(container: unknown): Hints | undefined {
  return typeof container === 'object' && container !== null
    ? (container as { [NUMBER_TYPES]?: Hints })[NUMBER_TYPES]
    : undefined;
}

function restore(container: Container, hints: Hints): Container {
  const copy: Record<string, unknown> | unknown[] = Array.isArray(container) ? [...container] : { ...container };
  for (const [key, type] of Object.entries(hints)) {
    const value = (copy as Record<string, unknown>)[key];
    if (typeof value !== 'number') continue;
    (copy as Record<string, unknown>)[key] = type === 'double' ? new Double(value) : Long.fromNumber(value);
  }
  return copy;
}

export function setNumberTypes(container: Container, hints: Hints): void {
  if (Object.keys(hints).length === 0) return;
  Object.defineProperty(container, NUMBER_TYPES, { value: hints, configurable: true });
  Object.defineProperty(container, 'toBSON', { value: () => restore(container, hints), configurable: true });
}

/** Gives `to` the remembered number types of `from` (for copies made with spread). */
export function copyNumberTypes(from: Container, to: Container): void {
  const hints = numberTypesOf(from);
  if (hints) setNumberTypes(to, { ...hints });
}

/**
 * Replaces Int32/Double/Long wrappers (from `promoteValues: false`) by numbers, remembering lossy ones, and BinData
 * (`Binary`, `UUID`) by `ComparableBinary`.
 */
export function adoptNumbers(value: unknown): unknown {
  if (
    Array.isArray(value) ||
    (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)
  ) {
    const container = value as Record<string, unknown>;
    const hints: Hints = {};
    for (const key of Object.keys(container)) {
      const [number, type] = unwrap(container[key]);
      container[key] = number;
      if (type) hints[key] = type;
    }
    setNumberTypes(container, hints);
  }
  return value;
}

function unwrap(value: unknown): [unknown, NumberType?] {
  if (typeof value !== 'object' || value === null) return [value];
  switch ((value as { _bsontype?: string })._bsontype) {
    case 'Int32':
      return [(value as { value: number }).value];
    case 'Double': {
      const number = (value as Double).value;
      return Number.isInteger(number) ? [number, 'double'] : [number];
    }
    case 'Long': {
      const long = value as Long;
      if (long.lessThanOrEqual(Number.MAX_SAFE_INTEGER) && long.greaterThanOrEqual(Number.MIN_SAFE_INTEGER))
        return [long.toNumber(), 'long'];
      noteBsonNumber();
      return [long];
    }
    // Compared as a number by value, but kept as bson's class (see decimal-number).
    case 'Decimal128':
      noteBsonNumber();
      return [value];
    // Not a number: decoded BinData is compared as MongoDB compares it (see comparable-binary).
    case 'Binary':
      return [comparableBinary(value as Binary)];
    default:
      return [adoptNumbers(value)];
  }
}

function isContainer(value: unknown): value is Container {
  return (
    Array.isArray(value) ||
    (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)
  );
}

/**
 * Gives the containers of `output` (a projection or pipeline result derived from `source`) the number
 * types of `source` wherever a number was carried over unchanged at the same path.
 */
export function inheritNumberTypes(source: unknown, output: unknown): void {
  if (source === output || !isContainer(source) || !isContainer(output)) return;
  const hints = numberTypesOf(source) ?? {};
  const inherited: Hints = { ...numberTypesOf(output) };
  for (const key of Object.keys(output)) {
    const value = (output as Record<string, unknown>)[key];
    const original = (source as Record<string, unknown>)[key];
    if (typeof value === 'number' && value === original && hints[key]) inherited[key] = hints[key];
    else inheritNumberTypes(original, value);
  }
  setNumberTypes(output, inherited);
}

import { Decimal128, Long } from 'bson';

/**
 * MongoDB compares every numeric type by value: `Decimal128("1.0")`, `1`, `NumberLong(1)` are equal, and order by
 * value among each other. JS numbers (int32, double, int64 within ±2^53) are mingo's; a `Decimal128` and an int64
 * beyond ±2^53 (a `Long`) are bson classes mingo knows nothing of. This file holds the exact arithmetic behind the
 * engine's treatment of them: each value is read as an exact decimal `sign * coefficient * 10^exponent` (a double
 * as the exact value of its binary fraction, `m * 2^e = m * 5^-e * 10^e`), so comparisons never go through a
 * lossy double: `Decimal128("0.1")` is below the double `0.1` (0.1000000000000000055…), as in MongoDB.
 */
export interface ExactDecimal {
  negative: boolean;
  coefficient: bigint;
  exponent: number;
}

type Special = 'NaN' | 'Infinity' | '-Infinity';
export type ExactNumber = ExactDecimal | Special;

let bsonNumberSeen = false;

/**
 * Whether this thread has decoded or made a Decimal128 or an int64 beyond ±2^53: until then no document holds one,
 * and numeric conditions need no look for them (`query/numeric-operators.ts`).
 */
export function bsonNumbersSeen(): boolean {
  return bsonNumberSeen;
}

export function noteBsonNumber(): void {
  bsonNumberSeen = true;
}

export function isDecimal(value: unknown): value is Decimal128 {
  return value instanceof Decimal128;
}

/** A number mingo does not know as one: a `Decimal128`, or a `Long` (an int64 no JS number holds exactly). */
export function isBsonNumber(value: unknown): value is Decimal128 | Long {
  return value instanceof Decimal128 || value instanceof Long;
}

/** A value MongoDB compares as a number: a JS number, a `Long` or a `Decimal128`. */
export function isNumeric(value: unknown): value is number | Long | Decimal128 {
  return typeof value === 'number' || value instanceof Decimal128 || value instanceof Long;
}

/** Whether a `Decimal128` or `Long` appears in the value, in arrays and documents at any depth. */
export function containsBsonNumber(value: unknown): boolean {
  if (isBsonNumber(value)) return true;
  if (Array.isArray(value)) return value.some(containsBsonNumber);
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value).some(containsBsonNumber);
  return false;
}

const DECIMAL_TEXT = /^(-)?(\d+)(?:\.(\d+))?(?:E([+-]\d+))?$/;
/** Decimals are parsed from their text once (sorts and index builds compare the same values many times). */
const parsedDecimals = new WeakMap<Decimal128, ExactNumber>();

function parseDecimal(value: Decimal128): ExactNumber {
  const known = parsedDecimals.get(value);
  if (known) return known;
  const text = value.toString();
  const match = DECIMAL_TEXT.exec(text);
  const exact: ExactNumber = match
    ? {
        negative: match[1] === '-',
        coefficient: BigInt(match[2] + (match[3] ?? '')),
        exponent: Number(match[4] ?? 0) - (match[3]?.length ?? 0),
      }
    : (text as Special);
  parsedDecimals.set(value, exact);
  return exact;
}

const float = new DataView(new ArrayBuffer(8));

/** The exact value of a finite double: its 53-bit significand times a power of two, as a decimal. */
function exactDouble(value: number): ExactNumber {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (Number.isSafeInteger(value)) return { negative: value < 0, coefficient: BigInt(Math.abs(value)), exponent: 0 };
  float.setFloat64(0, value);
  const high = float.getUint32(0);
  const biased = (high >>> 20) & 0x7ff;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(float.getUint32(4));
  const significand = biased === 0 ? fraction : fraction | (1n << 52n);
  const power = (biased === 0 ? 1 : biased) - 1075;
  const negative = value < 0;
  if (power >= 0) return { negative, coefficient: significand << BigInt(power), exponent: 0 };
  return { negative, coefficient: significand * 5n ** BigInt(-power), exponent: power };
}

/** The exact value of a numeric BSON value (see `isNumeric`). */
export function exactNumber(value: number | Long | Decimal128): ExactNumber {
  if (typeof value === 'number') return exactDouble(value);
  if (value instanceof Long) {
    const integer = value.toBigInt();
    return { negative: integer < 0n, coefficient: integer < 0n ? -integer : integer, exponent: 0 };
  }
  return parseDecimal(value);
}

/** MongoDB's order of numbers: NaN first, then -Infinity, the finite values, +Infinity. */
const SPECIAL_RANKS: Record<Special, number> = { NaN: 0, '-Infinity': 1, Infinity: 3 };
const rankOf = (value: ExactNumber): number => (typeof value === 'string' ? SPECIAL_RANKS[value] : 2);

function signOf(value: ExactDecimal): number {
  return value.coefficient === 0n ? 0 : value.negative ? -1 : 1;
}

/** The order of two exact values by value (1.0 and 1.00 are equal; every NaN equals every NaN). */
export function compareExact(a: ExactNumber, b: ExactNumber): number {
  const [rankA, rankB] = [rankOf(a), rankOf(b)];
  if (rankA !== rankB || typeof a === 'string' || typeof b === 'string') return Math.sign(rankA - rankB);
  const [signA, signB] = [signOf(a), signOf(b)];
  if (signA !== signB || signA === 0) return Math.sign(signA - signB);
  const common = Math.min(a.exponent, b.exponent);
  const scaledA = a.coefficient * 10n ** BigInt(a.exponent - common);
  const scaledB = b.coefficient * 10n ** BigInt(b.exponent - common);
  const magnitude = scaledA < scaledB ? -1 : scaledA > scaledB ? 1 : 0;
  return signA * magnitude;
}

/** The order of two numeric values by value, exactly (see `compareExact`). */
export function compareNumeric(a: number | Long | Decimal128, b: number | Long | Decimal128): number {
  return compareExact(exactNumber(a), exactNumber(b));
}

/** The value without trailing zeros in its coefficient: one spelling per value (zero is `0E0`). */
function normalized(value: ExactDecimal): ExactDecimal {
  if (value.coefficient === 0n) return { negative: false, coefficient: 0n, exponent: 0 };
  let { coefficient, exponent } = value;
  while (coefficient % 10n === 0n) {
    coefficient /= 10n;
    exponent++;
  }
  return { negative: value.negative, coefficient, exponent };
}

const INT64_LIMIT = 1n << 63n;

/**
 * A decimal's canonical number for index keys (`key-string.ts`), equal to the key of every equal number: the double
 * it equals exactly, if any; else an integer in int64's range as its digits (the key of that int64); else its
 * normalized `<coefficient>E<exponent>` (a form no other number's key takes).
 */
export function canonicalDecimal(value: Decimal128): number | string {
  const exact = parseDecimal(value);
  if (typeof exact === 'string') return Number(exact);
  const double = Number(value.toString());
  if (compareExact(exact, exactDouble(double)) === 0) return double;
  const { negative, coefficient, exponent } = normalized(exact);
  const sign = negative ? '-' : '';
  if (exponent >= 0 && exponent <= 19) {
    const integer = coefficient * 10n ** BigInt(exponent);
    if (integer < INT64_LIMIT) return `${sign}${integer}`;
  }
  return `${sign}${coefficient}E${exponent}`;
}

/** Decimal128 holds 34 significant digits. */
const DIGITS = 34;
const MAX_COEFFICIENT = 10n ** BigInt(DIGITS);

/** Rounds `value / 10^drop` to an integer, half to even (IEEE 754's default), `sticky` if digits below were cut. */
function roundHalfEven(value: bigint, drop: number, sticky = false): bigint {
  if (drop <= 0) return value;
  const divisor = 10n ** BigInt(drop);
  const quotient = value / divisor;
  const twice = (value % divisor) * 2n;
  const half = twice === divisor ? (sticky ? 1 : 0) : twice > divisor ? 1 : -1;
  return half > 0 || (half === 0 && quotient % 2n === 1n) ? quotient + 1n : quotient;
}

function digitCount(value: bigint): number {
  return value.toString().length;
}

/** The value rounded to Decimal128's 34 digits (half to even), keeping its exponent when it fits. */
export function rounded(value: ExactNumber, sticky = false): ExactNumber {
  if (typeof value === 'string') return value;
  const excess = digitCount(value.coefficient) - DIGITS;
  if (excess <= 0) return value;
  let coefficient = roundHalfEven(value.coefficient, excess, sticky);
  let exponent = value.exponent + excess;
  if (coefficient === MAX_COEFFICIENT) {
    coefficient /= 10n;
    exponent++;
  }
  return { ...value, coefficient, exponent };
}

/**
 * A number as MongoDB converts a double to a Decimal128 with 34 digits (`Decimal128(double, kRoundTo34Digits)`, Intel's
 * `binary64_to_bid128`): its exact value rounded, or padded with zeros, to 34 significant digits (0.5 is
 * 0.5000000000000000000000000000000000); zero stays 0.
 */
export function to34Digits(exact: ExactNumber): ExactNumber {
  if (typeof exact === 'string' || exact.coefficient === 0n) return exact;
  const missing = DIGITS - digitCount(exact.coefficient);
  if (missing <= 0) return rounded(exact);
  return { ...exact, coefficient: exact.coefficient * 10n ** BigInt(missing), exponent: exact.exponent - missing };
}

/** A bson Decimal128 of the value (rounded to 34 digits). */
export function toDecimal128(value: ExactNumber): Decimal128 {
  noteBsonNumber();
  if (typeof value === 'string') return Decimal128.fromString(value);
  const { negative, coefficient, exponent } = rounded(value) as ExactDecimal;
  return Decimal128.fromString(`${negative ? '-' : ''}${coefficient}E${exponent >= 0 ? '+' : ''}${exponent}`);
}

function addFinite(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  const common = Math.min(a.exponent, b.exponent);
  const signed = (value: ExactDecimal): bigint =>
    (value.negative ? -1n : 1n) * value.coefficient * 10n ** BigInt(value.exponent - common);
  const total = signed(a) + signed(b);
  return { negative: total < 0n, coefficient: total < 0n ? -total : total, exponent: common };
}

/** The exact sum (NaN with a NaN or with opposite infinities, as IEEE 754 adds). */
export function addExact(a: ExactNumber, b: ExactNumber): ExactNumber {
  if (typeof a === 'string' || typeof b === 'string') {
    if (a === 'NaN' || b === 'NaN') return 'NaN';
    if (typeof a === 'string' && typeof b === 'string') return a === b ? a : 'NaN';
    return typeof a === 'string' ? a : b;
  }
  return addFinite(a, b);
}

/**
 * `value / count` as IEEE 754 decimal division does it: the exact quotient at the dividend's exponent when there is
 * one (4.00 / 2 is 2.00), otherwise the quotient rounded to 34 digits.
 */
export function divideExact(value: ExactNumber, count: number): ExactNumber {
  if (typeof value === 'string') return value;
  const divisor = BigInt(count);
  let coefficient = value.coefficient;
  let exponent = value.exponent;
  while (coefficient % divisor !== 0n && digitCount(coefficient / divisor) <= DIGITS) {
    coefficient *= 10n;
    exponent--;
  }
  const sticky = coefficient % divisor !== 0n;
  return rounded({ negative: value.negative, coefficient: coefficient / divisor, exponent }, sticky);
}

import { Query } from 'mingo/query';
import { $all as mingoAll, $bitsAllClear, $bitsAllSet, $bitsAnyClear, $bitsAnySet } from 'mingo/operators/query';
import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import type { Doc } from '../types';

type Predicate = (obj: Doc) => boolean;
type QueryOperator = (selector: string, value: unknown, options: Options) => Predicate;

/**
 * `{a: {$all: [x, y]}}` is `{$and: [{a: x}, {a: y}]}` (MongoDB manual, `$all`): each item matches as an equality,
 * a regex or an `$elemMatch` would, so a string field matches `$all: ['s']` and an array of strings
 * `$all: [/^on/]`. mingo's own `$all` only looks into arrays.
 */
const $all: QueryOperator = (selector, value, options) => {
  if (!Array.isArray(value)) return mingoAll(selector, value, options);
  if (value.length === 0) return () => false;
  const query = new Query({ $and: value.map((item: unknown) => ({ [selector]: item })) }, options);
  return (obj) => query.test(obj);
};

/** The bytes of a BinData value (a bson `Binary`, `UUID` or a plain byte array), else undefined. */
function binaryBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  const binary = value as { _bsontype?: unknown; buffer?: unknown } | null;
  return binary?._bsontype === 'Binary' && binary.buffer instanceof Uint8Array ? binary.buffer : undefined;
}

/** The bit positions a bitmask names: a list of positions, a non-negative integer or BinData. */
function maskPositions(mask: unknown): number[] {
  if (Array.isArray(mask)) return mask.map(Number);
  const bytes = binaryBytes(mask);
  if (bytes)
    return [...bytes].flatMap((byte, i) =>
      [0, 1, 2, 3, 4, 5, 6, 7].filter((bit) => (byte >> bit) & 1).map((bit) => i * 8 + bit),
    );
  let bits = BigInt(String(mask));
  const positions: number[] = [];
  for (let position = 0; bits > 0n; position++, bits >>= 1n) if (bits & 1n) positions.push(position);
  return positions;
}

/** Bit `position` of BinData: byte `position / 8`, least significant bit first; bits past the end are clear. */
function bitOf(bytes: Uint8Array, position: number): boolean {
  const byte = bytes[position >> 3];
  return byte !== undefined && ((byte >> (position & 7)) & 1) === 1;
}

/** mingo's bitwise operators read numbers only; BinData values are tested here (MongoDB manual, `$bitsAllSet`). */
function withBinData(numeric: QueryOperator, test: (bits: boolean[]) => boolean): QueryOperator {
  return (selector, mask, options) => {
    // mingo's numeric test reads a mask that is no list as a number: BinData is given as its bit positions.
    const onNumbers = numeric(selector, binaryBytes(mask) ? maskPositions(mask) : mask, options);
    let positions: number[] | undefined;
    return (obj) => {
      const bytes = binaryBytes(resolve(obj, selector));
      if (!bytes) return onNumbers(obj);
      positions ??= maskPositions(mask);
      return test(positions.map((position) => bitOf(bytes, position)));
    };
  };
}

export const arrayBitOperators = {
  $all,
  $bitsAllSet: withBinData($bitsAllSet, (bits) => bits.every((set) => set)),
  $bitsAllClear: withBinData($bitsAllClear, (bits) => bits.every((set) => !set)),
  $bitsAnySet: withBinData($bitsAnySet, (bits) => bits.some((set) => set)),
  $bitsAnyClear: withBinData($bitsAnyClear, (bits) => bits.some((set) => !set)),
};

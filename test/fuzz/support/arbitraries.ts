import fc from 'fast-check';

/** Strings attackers and careless clients send: operators, prototype keys, traversal, ids, numbers as text. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '$where',
  '$gt',
  '{"$gt":""}',
  '{"$where":"sleep(1000)"}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../etc/passwd',
  '..\\..\\x',
  '%00',
  '\u0000',
  '.*',
  '(a+)+$',
  'null',
  'undefined',
  'NaN',
  '-1',
  '2147483648',
  '1e400',
  '000000000000000000000000',
  'ffffffffffffffffffffffff',
  '<script>alert(1)</script>',
  'data:image/png;base64,!!!',
  '\uD800',
  'é',
];

/** Any text: mostly short, sometimes hostile, sometimes long (up to 4 KiB). */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 24, unit: 'grapheme-ascii' }) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 24, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.string({ minLength: 24, maxLength: 24, unit: fc.constantFrom(...'0123456789abcdef') }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 4096 }).map((n) => 'x'.repeat(n)) },
);

/** Any number JSON can carry, with the edges (huge, negative, fractional). */
export const anyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -5, max: 300 }),
  fc.integer(),
  fc.constantFrom(0, -0, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, 1e21, 1e300, -1e300, 0.5, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Object keys, hostile ones included. */
export const anyKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 10 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '$where',
      '$gt',
      '$ne',
      '$regex',
      '$expr',
      '__proto__',
      'constructor',
      'prototype',
      '0',
      '1',
      'a.b',
      '',
    ),
  },
);

/**
 * JSON values with hostile keys; objects are null-prototype so that `__proto__` is an own key and
 * `JSON.stringify` writes it as clients would.
 */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    anyNumber,
    anyText,
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .array(fc.tuple(anyKey, tie('value')), { maxLength: 4 })
      .map((entries) => Object.assign(Object.create(null) as object, Object.fromEntries(entries))),
  ),
})).value;

/** Nesting far deeper than any real argument: arrays or objects, `depth` levels. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Printable header values (what an HTTP client can send at all). */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('en', 'de', 'en-US', 'default', '', ' ', '../../x', 'x'.repeat(300), '$where', 'a,b', 'zz_ZZ'),
  fc.string({ maxLength: 20, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
);

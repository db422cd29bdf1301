import { nestingExceeds } from './json-depth';

function nested(levels: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 0;
  for (let level = 0; level < levels; level++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

describe(nestingExceeds.name, () => {
  it.each(['array', 'object'] as const)(
    'should accept %s nesting up to the limit and refuse one level more',
    (kind) => {
      expect(nestingExceeds(nested(8, kind), 8)).toBe(false);
      expect(nestingExceeds(nested(9, kind), 8)).toBe(true);
    },
  );

  // the outer object and `c` are two levels, `d` holds the rest
  it('should find a deep branch beside shallow ones', () => {
    expect(nestingExceeds({ a: 1, b: [1, 2], c: { d: nested(9, 'object') } }, 10)).toBe(true);
    expect(nestingExceeds({ a: 1, b: [1, 2], c: { d: nested(8, 'object') } }, 10)).toBe(false);
  });

  it.each([undefined, null, 'text', 42, {}, []])('should accept %p', (value) => {
    expect(nestingExceeds(value, 1)).toBe(false);
  });

  it('should walk 100,000 levels without overflowing the stack', () => {
    expect(nestingExceeds(nested(100_000, 'array'), 128)).toBe(true);
  });
});

import { BadRequestException } from '@nestjs/common';
import { assertSafeArguments, MAX_ARGUMENT_DEPTH, toPositional } from './argument-forms';

describe('argument forms', () => {
  describe(toPositional.name, () => {
    it.each([
      [[{ '0': 'a', '1': 5 }], ['a', 5]],
      [
        [{ '0': 'a' }, { '1': 5 }],
        ['a', 5],
      ],
      [
        [{ '1': 5 }, { '0': 'a' }],
        ['a', 5],
      ],
      [
        ['a', 5],
        ['a', 5],
      ],
      [[], []],
      [[{}], [{}]],
      [[{ '1': 'gap' }], [{ '1': 'gap' }]],
      [
        [{ '0': 'a' }, { '0': 'twice' }],
        [{ '0': 'a' }, { '0': 'twice' }],
      ],
      [[{ '0': 'a', name: 'x' }], [{ '0': 'a', name: 'x' }]],
      [[{ '00': 'a' }], [{ '00': 'a' }]],
      [
        [{ '0': 'a' }, 'b'],
        [{ '0': 'a' }, 'b'],
      ],
    ])('should read %j as %j', (args, expected) => {
      expect(toPositional(args)).toEqual(expected);
    });
  });

  describe(assertSafeArguments.name, () => {
    it.each(['{"__proto__":1}', '[{"a":[{"constructor":{}}]}]', '{"a":{"b":{"prototype":null}}}'])(
      'should refuse %s',
      (json) => {
        expect(() => assertSafeArguments(JSON.parse(json))).toThrow(BadRequestException);
      },
    );

    it('should accept values that only mention the words', () => {
      expect(() => assertSafeArguments([{ name: '__proto__', list: ['constructor'] }])).not.toThrow();
    });

    it('should walk nesting up to the limit without recursion, and refuse deeper nesting', () => {
      const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;
      expect(() => assertSafeArguments(nested(MAX_ARGUMENT_DEPTH + 1))).not.toThrow();
      expect(() => assertSafeArguments(nested(MAX_ARGUMENT_DEPTH + 2))).toThrow(BadRequestException);
      expect(() => assertSafeArguments(nested(100_000))).toThrow(BadRequestException);
    });
  });
});

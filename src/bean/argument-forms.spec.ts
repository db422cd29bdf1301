import { BadRequestException } from '@nestjs/common';
import { assertNoHostileKeys, toPositional } from './argument-forms';

describe('argument forms', () => {
  describe(toPositional.name, () => {
    it.each([
      [[{ '0': 'a', '1': 5 }], ['a', 5]],
      [[{ '0': 'a' }, { '1': 5 }], ['a', 5]],
      [[{ '1': 5 }, { '0': 'a' }], ['a', 5]],
      [['a', 5], ['a', 5]],
      [[], []],
      [[{}], [{}]],
      [[{ '1': 'gap' }], [{ '1': 'gap' }]],
      [[{ '0': 'a' }, { '0': 'twice' }], [{ '0': 'a' }, { '0': 'twice' }]],
      [[{ '0': 'a', name: 'x' }], [{ '0': 'a', name: 'x' }]],
      [[{ '00': 'a' }], [{ '00': 'a' }]],
      [[{ '0': 'a' }, 'b'], [{ '0': 'a' }, 'b']],
    ])('should read %j as %j', (args, expected) => {
      expect(toPositional(args)).toEqual(expected);
    });
  });

  describe(assertNoHostileKeys.name, () => {
    it.each(['{"__proto__":1}', '[{"a":[{"constructor":{}}]}]', '{"a":{"b":{"prototype":null}}}'])('should refuse %s', (json) => {
      expect(() => assertNoHostileKeys(JSON.parse(json))).toThrow(BadRequestException);
    });

    it('should accept values that only mention the words', () => {
      expect(() => assertNoHostileKeys([{ name: '__proto__', list: ['constructor'] }])).not.toThrow();
    });

    it('should walk deep nesting without recursion', () => {
      const deep = JSON.parse('['.repeat(100000) + ']'.repeat(100000)) as unknown;
      expect(() => assertNoHostileKeys(deep)).not.toThrow();
    });
  });
});

import { BadRequestException } from '@nestjs/common';
import { converterFor, typesOverlap } from './argument-conversion';
import { ParamType } from './param-types';

describe('argument conversion', () => {
  it.each<[ParamType, unknown, unknown]>([
    ['String', 'text', 'text'],
    ['int', 7, 7],
    ['int', '-12', -12],
    ['int', '2147483647', 2147483647],
    ['boolean', false, false],
    ['Map', { a: 1 }, { a: 1 }],
    ['IdList', ['a'], ['a']],
  ])('should convert %s %j to %j', (type, value, expected) => {
    expect(converterFor(type).convert(value, 0)).toEqual(expected);
  });

  it.each<[ParamType, unknown]>([
    ['String', 1],
    ['int', 1.5],
    ['int', '1e3'],
    ['int', ' 1'],
    ['int', '2147483648'],
    ['int', -2147483649],
    ['boolean', 'false'],
    ['Map', []],
    ['Map', new Date()],
    ['IdList', [1]],
  ])('should refuse %s %j', (type, value) => {
    expect(() => converterFor(type).convert(value, 3)).toThrow(BadRequestException);
  });

  it('should name the index and both types', () => {
    expect(() => converterFor('int').convert('x', 2)).toThrow('Argument 2: expected int, received string');
  });

  describe(typesOverlap.name, () => {
    it.each<[ParamType, ParamType, boolean]>([
      ['String', 'String', true],
      ['String', 'int', true],
      ['String', 'Map', false],
      ['int', 'boolean', false],
      ['Map', 'IdList', false],
    ])('should say %s and %s overlap: %s', (a, b, expected) => {
      expect(typesOverlap(a, b)).toBe(expected);
    });
  });
});

import { formatNumber, numberPatternProblem } from './number-pattern';

describe('number patterns', () => {
  it.each([
    ['INV-{YYYY}-{SEQ:6}', 2026, 42, 'INV-2026-000042'],
    ['{YYYY}/{SEQ}', 2026, 7, '2026/7'],
    ['CN.{SEQ:3}.{YYYY}', 2027, 1234, 'CN.1234.2027'],
    ['R_{YYYY}_{SEQ:10}', 2026, 5, 'R_2026_0000000005'],
  ])('should number with %s', (pattern, year, sequence, number) => {
    expect(numberPatternProblem(pattern)).toBeNull();
    expect(formatNumber(pattern, year, sequence)).toBe(number);
  });

  it.each([
    ['empty', ''],
    ['no sequence', 'INV-{YYYY}'],
    ['no year', 'INV-{SEQ:6}'],
    ['two sequences', '{YYYY}-{SEQ}-{SEQ}'],
    ['two years', '{YYYY}-{YYYY}-{SEQ}'],
    ['a width of 0', '{YYYY}-{SEQ:0}'],
    ['a width of 11', '{YYYY}-{SEQ:11}'],
    ['an unknown token', '{YYYY}-{SEQ}-{ID}'],
    ['a space', 'INV {YYYY}-{SEQ}'],
    ['a stray brace', 'INV{-{YYYY}-{SEQ}'],
    ['too long', `${'A'.repeat(30)}-{YYYY}-{SEQ}`],
    ['a regex-looking text', '(a+)+$-{YYYY}-{SEQ}'],
  ])('should refuse %s', (_, pattern) => {
    expect(numberPatternProblem(pattern)).toEqual(expect.any(String));
  });
});

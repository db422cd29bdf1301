import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import type { Doc } from '../types';

/** MongoDB locales use `_` (en_US); Intl wants BCP 47 tags (en-US). */
export function intlLocale(locale: string): string {
  return locale.replace(/_/g, '-');
}

const SENSITIVITY: Record<number, Intl.CollatorOptions['sensitivity']> = { 1: 'base', 2: 'accent', 3: 'variant' };

export function collator(collation: Doc): Intl.Collator {
  return new Intl.Collator(intlLocale(String(collation.locale)), {
    sensitivity: SENSITIVITY[Number(collation.strength ?? 3)] ?? 'variant',
    numeric: collation.numericOrdering === true,
  });
}

/** MongoDB stores a collation with every field spelled out (ICU defaults); `simple` means none. */
export function fullCollation(collation: Doc): Doc | undefined {
  if (collation.locale === 'simple') return undefined;
  return {
    locale: collation.locale,
    caseLevel: false,
    caseFirst: 'off',
    strength: 3,
    numericOrdering: false,
    alternate: 'non-ignorable',
    maxVariable: 'punct',
    normalization: false,
    backwards: false,
    ...collation,
    version: '57.1',
  };
}

/**
 * A string MongoDB considers equal under the collation to every string that compares equal: case
 * folded below strength 3, diacritics removed at strength 1. Used for keys of collated indexes.
 */
export function collationKey(value: string, collation: Doc): string {
  const strength = Number(collation.strength ?? 3);
  if (strength >= 3) return value;
  const folded = value.toLocaleLowerCase(intlLocale(String(collation.locale)));
  return strength === 1 ? folded.normalize('NFD').replace(/\p{M}/gu, '') : folded;
}

type Outcome = (comparison: number) => boolean;

/** Strings compare under the collation; other types only match themselves when equality is asked. */
function collatedTest(a: unknown, b: unknown, compare: Intl.Collator, outcome: Outcome): boolean {
  if (typeof a === 'string' && typeof b === 'string') return outcome(compare.compare(a, b));
  return a === b && outcome(0);
}

function fieldValues(obj: Doc, selector: string): unknown[] {
  const value = resolve(obj, selector);
  return Array.isArray(value) ? [value, ...(value.flat(Infinity) as unknown[])] : [value];
}

function matcher(
  selector: string,
  values: unknown[],
  options: Options,
  outcome: Outcome = (c) => c === 0,
): (obj: Doc) => boolean {
  const compare = collator(options.collation as unknown as Doc);
  return (obj) =>
    fieldValues(obj, selector).some((actual) =>
      values.some((expected) => collatedTest(actual, expected, compare, outcome)),
    );
}

const rangeOperator = (outcome: Outcome) => (selector: string, value: unknown, options: Options) =>
  matcher(selector, [value], options, outcome);

/**
 * mingo applies collation to sorting only. These operators give string equality and range conditions
 * collation semantics; `rewriteFilter` maps string conditions onto them when a command has a collation.
 */
export const collationOperators = {
  $collatedEq: (selector: string, value: unknown, options: Options) => matcher(selector, [value], options),
  $collatedIn: (selector: string, value: unknown, options: Options) => matcher(selector, value as unknown[], options),
  $collatedGt: rangeOperator((c) => c > 0),
  $collatedGte: rangeOperator((c) => c >= 0),
  $collatedLt: rangeOperator((c) => c < 0),
  $collatedLte: rangeOperator((c) => c <= 0),
};

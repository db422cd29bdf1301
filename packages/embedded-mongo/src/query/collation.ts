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

function collatedEqual(a: unknown, b: unknown, compare: Intl.Collator): boolean {
  if (typeof a === 'string' && typeof b === 'string') return compare.compare(a, b) === 0;
  return a === b;
}

function fieldValues(obj: Doc, selector: string): unknown[] {
  const value = resolve(obj, selector);
  return Array.isArray(value) ? [value, ...value.flat(Infinity)] : [value];
}

function matcher(selector: string, values: unknown[], options: Options): (obj: Doc) => boolean {
  const compare = collator(options.collation as unknown as Doc);
  return (obj) => fieldValues(obj, selector).some((actual) => values.some((expected) => collatedEqual(actual, expected, compare)));
}

/**
 * mingo applies collation to sorting only. These operators give string equality collation semantics;
 * `rewriteFilter` maps string equality conditions onto them when a command has a collation.
 */
export const collationOperators = {
  $collatedEq: (selector: string, value: unknown, options: Options) => matcher(selector, [value], options),
  $collatedIn: (selector: string, value: unknown, options: Options) => matcher(selector, value as unknown[], options),
};

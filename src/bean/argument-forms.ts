import { BadRequestException } from '@nestjs/common';
import { HOSTILE_KEYS, isPlainRecord } from '../common/plain-object';

const DECIMAL_INDEX = /^(0|[1-9]\d{0,4})$/;

/**
 * Arguments nested deeper than this are refused: DTO conversion, validation and the services walk values
 * recursively, and a deep enough value (a few thousand levels fit in a 1 MiB body) overflows the stack: a 500.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Rejects (400) the keys `__proto__`, `constructor` and `prototype` at any depth, and nesting deeper than
 * {@link MAX_ARGUMENT_DEPTH}.
 */
export function assertSafeArguments(value: unknown): void {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > MAX_ARGUMENT_DEPTH) {
      throw new BadRequestException(`Arguments may be nested at most ${MAX_ARGUMENT_DEPTH} levels deep`);
    }
    for (const key of Object.keys(current)) {
      if (HOSTILE_KEYS.has(key)) throw new BadRequestException(`The key '${key}' is not allowed in arguments`);
      pending.push([(current as Record<string, unknown>)[key], depth + 1]);
    }
  }
}

/**
 * Reads `args` in one of the three forms (DESIGN §2): it is indexed when every element is a plain object whose keys
 * are decimal indices and all keys together are exactly 0..n-1 (at least one); otherwise it is positional.
 * @example toPositional([{ '0': 'a', '1': 5 }]) // ['a', 5]
 * @example toPositional([{ '0': 'a' }, { '1': 5 }]) // ['a', 5]
 * @example toPositional(['a', 5]) // ['a', 5]
 */
export function toPositional(args: unknown[]): unknown[] {
  return fromIndexed(args) ?? args;
}

function fromIndexed(args: unknown[]): unknown[] | undefined {
  const byIndex = new Map<number, unknown>();
  for (const element of args) {
    if (!isPlainRecord(element)) return undefined;
    for (const key of Object.keys(element)) {
      if (!DECIMAL_INDEX.test(key) || byIndex.has(Number(key))) return undefined;
      byIndex.set(Number(key), element[key]);
    }
  }
  if (byIndex.size === 0) return undefined;
  const positional: unknown[] = [];
  for (let index = 0; index < byIndex.size; index++) {
    if (!byIndex.has(index)) return undefined;
    positional.push(byIndex.get(index));
  }
  return positional;
}

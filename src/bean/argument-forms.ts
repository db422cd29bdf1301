import { BadRequestException } from '@nestjs/common';
import { HOSTILE_KEYS, isPlainRecord } from '../common/plain-object';

const DECIMAL_INDEX = /^(0|[1-9]\d{0,4})$/;

/** Rejects (400) the keys `__proto__`, `constructor` and `prototype` at any depth. */
export function assertNoHostileKeys(value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null) continue;
    for (const key of Object.keys(current)) {
      if (HOSTILE_KEYS.has(key)) throw new BadRequestException(`The key '${key}' is not allowed in arguments`);
      pending.push((current as Record<string, unknown>)[key]);
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

import { resolve } from 'mingo/util';
import { keyString } from '../indexes/key-string';
import { countMatches, findMatches } from '../ops/match';
import { collator } from '../query/collation';
import { toCollation } from '../query/mingo-options';
import type { Doc } from '../types';
import type { CommandContext, CommandTable } from './context';
import { collectionName, commandEnv } from './env';
import { readSource } from './read-source';

/**
 * `count`: the collection's size for an empty query (MongoDB's fast count), else the count plan's result
 * (index keys only when the bounds are exact, see planCount).
 */
function count(command: Doc, context: CommandContext): Doc {
  const source = readSource(context, collectionName(command, 'count'));
  const filter = (command.query ?? {}) as Doc;
  const env = commandEnv(context, command, command.count);
  const options = { skip: Number(command.skip ?? 0), limit: Math.abs(Number(command.limit ?? 0)), hint: command.hint };
  if (!source || Array.isArray(source)) return { n: findMatches(source, filter, env, options).length };
  const fastCount = Object.keys(filter).length === 0 && options.hint === undefined;
  if (fastCount) return { n: limited(source.docs.size, options.skip, options.limit) };
  return { n: countMatches(source, filter, env, options) };
}

function limited(count: number, skip: number, limit: number): number {
  const skipped = Math.max(0, count - skip);
  return limit > 0 ? Math.min(skipped, limit) : skipped;
}

/** Keeps the first of the strings the collation considers equal. */
function dedupeCollated(values: unknown[], compare: Intl.Collator): unknown[] {
  const kept: unknown[] = [];
  for (const value of values) {
    const duplicate =
      typeof value === 'string' &&
      kept.some((other) => typeof other === 'string' && compare.compare(other, value) === 0);
    if (!duplicate) kept.push(value);
  }
  return kept;
}

function distinct(command: Doc, context: CommandContext): Doc {
  const collection = readSource(context, collectionName(command, 'distinct'));
  const key = String(command.key);
  const env = commandEnv(context, command, command.distinct);
  const matches = findMatches(collection, (command.query ?? {}) as Doc, env, { hint: command.hint });
  const values = new Map<string, unknown>();
  for (const doc of matches) {
    const value = resolve(doc, key);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined) values.set(keyString([item]), item);
    }
  }
  return {
    values: toCollation(env.collation)
      ? dedupeCollated([...values.values()], collator(env.collation as Doc))
      : [...values.values()],
  };
}

export const countCommands: CommandTable = { count, distinct };

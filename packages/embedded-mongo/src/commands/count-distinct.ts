import { resolve } from 'mingo/util';
import { keyString } from '../indexes/key-string';
import { findMatches } from '../ops/match';
import type { Doc } from '../types';
import type { CommandContext, CommandTable } from './context';
import { collectionName, commandEnv } from './env';

function count(command: Doc, context: CommandContext): Doc {
  const collection = context.engine.collection(context.db, collectionName(command, 'count'));
  const matches = findMatches(collection, (command.query ?? {}) as Doc, commandEnv(context, command), {
    skip: Number(command.skip ?? 0),
    limit: Number(command.limit ?? 0),
    hint: command.hint,
  });
  return { n: matches.length };
}

function distinct(command: Doc, context: CommandContext): Doc {
  const collection = context.engine.collection(context.db, collectionName(command, 'distinct'));
  const key = String(command.key);
  const matches = findMatches(collection, (command.query ?? {}) as Doc, commandEnv(context, command), { hint: command.hint });
  const values = new Map<string, unknown>();
  for (const doc of matches) {
    const value = resolve(doc, key);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined) values.set(keyString([item]), item);
    }
  }
  return { values: [...values.values()] };
}

export const countCommands: CommandTable = { count, distinct };

import { Long } from 'bson';
import { findLazily } from '../ops/match';
import { returnKeys } from '../ops/return-key';
import type { Doc } from '../types';
import type { CommandContext, CommandTable } from './context';
import { collectionName, commandEnv } from './env';
import { readSource } from './read-source';

function find(command: Doc, context: CommandContext): Doc {
  const name = collectionName(command, 'find');
  const limit = Number(command.limit ?? 0);
  const source = readSource(context, name);
  const filter = (command.filter ?? {}) as Doc;
  const env = commandEnv(context, command, name);
  const sort = command.sort as Doc | undefined;
  const returnKey = command.returnKey === true;
  const found = findLazily(source, filter, env, {
    sort,
    projection: returnKey ? undefined : (command.projection as Doc | undefined),
    skip: Number(command.skip ?? 0),
    limit,
    hint: command.hint,
    bounds: { min: command.min as Doc | undefined, max: command.max as Doc | undefined },
  });
  const docs = returnKey ? returnKeys(found.keyPattern, found.docs) : found.docs;
  const singleBatch = command.singleBatch === true || limit < 0;
  const batchSize = command.batchSize === undefined ? undefined : Number(command.batchSize);
  return context.cursors.open(`${context.db}.${name}`, docs, batchSize, singleBatch);
}

function getMore(command: Doc, context: CommandContext): Doc {
  const ns = `${context.db}.${collectionName(command, 'collection')}`;
  const batchSize = command.batchSize === undefined ? undefined : Number(command.batchSize);
  return context.cursors.getMore(command.getMore, ns, batchSize);
}

function killCursors(command: Doc, context: CommandContext): Doc {
  const ids = ((command.cursors ?? []) as unknown[]).map((id) => Long.fromValue(id as number));
  const { killed, notFound } = context.cursors.kill(ids);
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] };
}

export const findCommands: CommandTable = { find, getMore, killCursors };

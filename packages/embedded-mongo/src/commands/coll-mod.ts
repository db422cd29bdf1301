import { MongoError } from '../errors';
import type { Index } from '../indexes/index';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import type { CommandContext } from './context';
import { collectionName } from './env';

const OPTION_KEYS = ['validator', 'validationLevel', 'validationAction', 'viewOn', 'pipeline', 'expireAfterSeconds', 'changeStreamPreAndPostImages'];

function findIndex(collection: Collection, target: Doc): Index {
  const pattern = isDoc(target.keyPattern) ? JSON.stringify(target.keyPattern) : undefined;
  const index = [...collection.indexes.values()].find((candidate) => candidate.name === target.name || JSON.stringify(candidate.spec.key) === pattern);
  if (!index) throw new MongoError('IndexNotFound', `cannot find index ${JSON.stringify(target.name ?? target.keyPattern)} for ns ${collection.ns}`);
  return index;
}

/** Changes `hidden` / `expireAfterSeconds` of one index and reports old and new values as MongoDB does. */
function modifyIndex(collection: Collection, target: Doc): Doc {
  const index = findIndex(collection, target);
  if (target.hidden !== undefined && index.name === '_id_') throw new MongoError('BadValue', 'can\'t hide _id index');
  const reply: Doc = {};
  for (const option of ['hidden', 'expireAfterSeconds'] as const) {
    if (target[option] === undefined) continue;
    const old = option === 'hidden' ? !!index.spec.hidden : index.spec[option];
    const spec: Doc = index.spec;
    if (target[option] === false) delete spec[option];
    else spec[option] = target[option];
    Object.assign(reply, { [`${option}_old`]: old, [`${option}_new`]: target[option] });
  }
  return reply;
}

export async function collMod(command: Doc, context: CommandContext): Promise<Doc> {
  const name = collectionName(command, 'collMod');
  const collection = context.engine.collection(context.db, name);
  if (!collection) throw new MongoError('NamespaceNotFound', `ns does not exist: ${context.db}.${name}`);
  const reply = isDoc(command.index) ? modifyIndex(collection, command.index) : {};
  const options = Object.fromEntries(OPTION_KEYS.filter((key) => command[key] !== undefined).map((key) => [key, command[key]]));
  collection.options = { ...collection.options, ...options };
  collection.saveMeta();
  await context.engine.flush();
  return reply;
}

import { MongoError } from '../errors';
import type { Index } from '../indexes/index';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import type { CommandContext } from './context';
import { collectionName } from './env';

const OPTION_KEYS = [
  'validator',
  'validationLevel',
  'validationAction',
  'viewOn',
  'pipeline',
  'expireAfterSeconds',
  'changeStreamPreAndPostImages',
];

function findIndex(collection: Collection, target: Doc): Index {
  const pattern = isDoc(target.keyPattern) ? JSON.stringify(target.keyPattern) : undefined;
  const index = [...collection.indexes.values()].find(
    (candidate) => candidate.name === target.name || JSON.stringify(candidate.spec.key) === pattern,
  );
  if (!index)
    throw new MongoError(
      'IndexNotFound',
      `cannot find index ${JSON.stringify(target.name ?? target.keyPattern)} for ns ${collection.ns}`,
    );
  return index;
}

/** Turns a `prepareUnique` index unique, refusing (with the offending ids) while duplicates exist. */
function makeUnique(collection: Collection, index: Index): Doc {
  if (!index.spec.prepareUnique)
    throw new MongoError(
      'InvalidOptions',
      "Cannot make index unique with 'unique: true' unless 'prepareUnique' is set to true",
    );
  const groups = index.duplicates();
  if (groups.length > 0) {
    const violations = groups.map((ids) => ({ ids: ids.map((id) => collection.get(id)?._id) }));
    throw new MongoError(
      'CannotConvertIndexToUnique',
      'Cannot convert the index to unique. Please resolve conflicting documents before running collMod again.',
      { violations },
    );
  }
  const spec: Doc = index.spec;
  spec.unique = true;
  delete spec.prepareUnique;
  return { unique_new: true };
}

/** Changes `hidden` / `prepareUnique` / `expireAfterSeconds` / `unique` of one index, reporting old and new values as MongoDB does. */
function modifyIndex(collection: Collection, target: Doc): Doc {
  const index = findIndex(collection, target);
  if (target.hidden !== undefined && index.name === '_id_') throw new MongoError('BadValue', "can't hide _id index");
  const reply: Doc = target.unique === true ? makeUnique(collection, index) : {};
  for (const option of ['hidden', 'prepareUnique', 'expireAfterSeconds'] as const) {
    if (target[option] === undefined) continue;
    const old = option === 'expireAfterSeconds' ? index.spec[option] : !!index.spec[option];
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
  const options = Object.fromEntries(
    OPTION_KEYS.filter((key) => command[key] !== undefined).map((key) => [key, command[key]]),
  );
  collection.options = { ...collection.options, ...options };
  collection.saveMeta();
  await context.engine.flush();
  return reply;
}

import { MongoError } from '../errors';
import { defaultIndexName, type IndexSpec } from '../indexes/index-spec';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import type { CommandContext, CommandTable } from './context';
import { collectionName } from './env';

function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  const significant = (spec: IndexSpec): string =>
    JSON.stringify([spec.key, !!spec.unique, !!spec.sparse, spec.partialFilterExpression ?? null, spec.expireAfterSeconds ?? null]);
  return significant(a) === significant(b);
}

function normalizeSpec(raw: Doc): IndexSpec {
  if (!isDoc(raw.key) || Object.keys(raw.key).length === 0) throw new MongoError('BadValue', 'Index key pattern must be a non-empty object');
  const name = typeof raw.name === 'string' ? raw.name : defaultIndexName(raw.key);
  const { key: _key, name: _name, v: _v, ...options } = raw;
  return { v: 2, key: raw.key, name, ...options };
}

/** Returns false when an identical index already exists; throws on a conflicting one. */
function addIndex(collection: Collection, spec: IndexSpec): boolean {
  const byName = collection.indexes.get(spec.name);
  if (byName) {
    if (sameOptions(byName.spec, spec)) return false;
    const sameKey = JSON.stringify(byName.spec.key) === JSON.stringify(spec.key);
    throw new MongoError(sameKey ? 'IndexOptionsConflict' : 'IndexKeySpecsConflict', `An existing index has the same name as the requested index. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`);
  }
  const byKey = [...collection.indexes.values()].find((index) => JSON.stringify(index.spec.key) === JSON.stringify(spec.key));
  if (byKey && sameOptions(byKey.spec, spec)) return false;
  if (byKey && !spec.partialFilterExpression && !byKey.spec.partialFilterExpression) {
    throw new MongoError('IndexOptionsConflict', `Index already exists with a different name: ${byKey.name}`);
  }
  collection.createIndex(spec);
  return true;
}

async function createIndexes(command: Doc, context: CommandContext): Promise<Doc> {
  const name = collectionName(command, 'createIndexes');
  const existed = context.engine.collection(context.db, name) !== undefined;
  const collection = context.engine.ensure(context.db, name);
  const before = collection.indexes.size;
  const specs = ((command.indexes ?? []) as Doc[]).map(normalizeSpec);
  const created = specs.filter((spec) => addIndex(collection, spec)).length;
  collection.saveMeta();
  await context.engine.flush();
  return {
    createdCollectionAutomatically: !existed,
    numIndexesBefore: before,
    numIndexesAfter: collection.indexes.size,
    ...(created === 0 ? { note: 'all indexes already exist' } : {}),
  };
}

function requireCollection(context: CommandContext, name: string): Collection {
  const collection = context.engine.collection(context.db, name);
  if (!collection) throw new MongoError('NamespaceNotFound', `ns does not exist: ${context.db}.${name}`);
  return collection;
}

function listIndexes(command: Doc, context: CommandContext): Doc {
  const collection = requireCollection(context, collectionName(command, 'listIndexes'));
  const specs = [...collection.indexes.values()].map((index) => index.spec);
  const batchSize = (command.cursor as Doc | undefined)?.batchSize;
  return context.cursors.open(collection.ns, specs, batchSize === undefined ? undefined : Number(batchSize));
}

function indexNamesToDrop(collection: Collection, target: unknown): string[] {
  if (target === '*') return [...collection.indexes.keys()].filter((name) => name !== '_id_');
  const names = Array.isArray(target) ? target.map(String) : isDoc(target) ? [...collection.indexes.values()].filter((index) => JSON.stringify(index.spec.key) === JSON.stringify(target)).map((index) => index.name) : [String(target)];
  if (names.length === 0 || names.some((name) => !collection.indexes.has(name))) {
    throw new MongoError('IndexNotFound', `index not found with name [${String(isDoc(target) ? JSON.stringify(target) : target)}]`);
  }
  if (names.includes('_id_')) throw new MongoError('InvalidOptions', 'cannot drop _id index');
  return names;
}

async function dropIndexes(command: Doc, context: CommandContext): Promise<Doc> {
  const collection = requireCollection(context, collectionName(command, 'dropIndexes'));
  const before = collection.indexes.size;
  for (const name of indexNamesToDrop(collection, command.index)) collection.dropIndex(name);
  collection.saveMeta();
  await context.engine.flush();
  return { nIndexesWas: before };
}

export const indexCommands: CommandTable = { createIndexes, listIndexes, dropIndexes };

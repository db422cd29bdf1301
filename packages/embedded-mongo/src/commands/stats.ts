import { MongoError } from '../errors';
import { bsonOf, type Collection } from '../storage/collection';
import type { Doc } from '../types';
import type { CommandContext, CommandTable } from './context';
import { collectionName } from './env';

/** BSON bytes of the documents, from the serialized form each stored document keeps. */
function dataSize(collection: Collection): number {
  let size = 0;
  for (const doc of collection.docs.values()) size += bsonOf(doc).byteLength;
  return size;
}

/** The collection or NamespaceNotFound, as collStats (command and stage) answers. */
export function statsTarget(context: CommandContext, name: string): Collection {
  const collection = context.engine.collection(context.db, name);
  if (!collection) throw new MongoError('NamespaceNotFound', `Collection [${context.db}.${name}] not found.`);
  return collection;
}

function collStats(command: Doc, context: CommandContext): Doc {
  return storageStats(statsTarget(context, collectionName(command, 'collStats')));
}

/** Bytes per index, B-tree, text and geo (see each index class's `sizeBytes` for what is measured). */
function indexSizes(collection: Collection): Record<string, number> {
  return Object.fromEntries([...collection.maintainedIndexes()].map((index) => [index.name, index.sizeBytes()]));
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

export function storageStats(collection: Collection): Doc {
  const size = dataSize(collection);
  const sizes = indexSizes(collection);
  const count = collection.docs.size;
  const capped = collection.options.capped === true;
  return {
    ns: collection.ns,
    count,
    size,
    avgObjSize: count ? Math.round(size / count) : 0,
    storageSize: size,
    nindexes: Object.keys(sizes).length,
    indexSizes: sizes,
    totalIndexSize: sum(Object.values(sizes)),
    capped,
    ...(capped ? { maxSize: collection.options.size, max: collection.options.max } : {}),
  };
}

function dbStats(_command: Doc, context: CommandContext): Doc {
  const collections = context.engine.list(context.db);
  const dataSizes = collections.map(dataSize);
  const objects = collections.reduce((sum, collection) => sum + collection.docs.size, 0);
  const totalSize = dataSizes.reduce((sum, size) => sum + size, 0);
  return {
    db: context.db,
    collections: collections.filter((collection) => !collection.isView).length,
    views: collections.filter((collection) => collection.isView).length,
    objects,
    avgObjSize: objects ? totalSize / objects : 0,
    dataSize: totalSize,
    storageSize: totalSize,
    indexes: collections.reduce((total, collection) => total + Object.keys(indexSizes(collection)).length, 0),
    indexSize: sum(collections.map((collection) => sum(Object.values(indexSizes(collection))))),
  };
}

export const statsCommands: CommandTable = { collStats, dbStats };

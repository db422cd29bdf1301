import { MongoError } from '../errors';
import { fullCollation } from '../query/collation';
import { defaultIndexName, type IndexSpec } from '../indexes/index-spec';
import { isSearchSpec, normalizeSearchSpec } from '../indexes/search-indexes';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import type { CommandContext, CommandTable } from './context';
import { collectionName } from './env';

const json = (value: unknown): string => JSON.stringify(value ?? null);

function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  const significant = (spec: IndexSpec): string =>
    json([
      spec.key,
      !!spec.unique,
      !!spec.sparse,
      spec.partialFilterExpression,
      spec.expireAfterSeconds,
      spec.collation,
      !!spec.hidden,
      searchOptions(spec),
    ]);
  return significant(a) === significant(b);
}

/** Options of text and geo indexes that make two of them different. */
function searchOptions(spec: IndexSpec): unknown[] {
  return [spec.weights, spec.default_language, spec.language_override, spec.min, spec.max, spec.bits];
}

/** MongoDB tells indexes apart by key pattern, collation and partial filter; the name is a label. */
function sameIdentity(a: IndexSpec, b: IndexSpec): boolean {
  return (
    json([a.key, a.collation, a.partialFilterExpression]) === json([b.key, b.collation, b.partialFilterExpression])
  );
}

/** An index without its own collation gets the collection's default one, as MongoDB does. */
function normalizeSpec(raw: Doc, defaultCollation: unknown): IndexSpec {
  if (!isDoc(raw.key) || Object.keys(raw.key).length === 0)
    throw new MongoError('BadValue', 'Index key pattern must be a non-empty object');
  const name = typeof raw.name === 'string' ? raw.name : defaultIndexName(raw.key);
  const { key: _key, name: _name, v: _v, ...options } = raw;
  const collation = options.collation ?? defaultCollation;
  options.collation = isDoc(collation) ? fullCollation(collation) : undefined;
  if (options.collation === undefined) delete options.collation;
  const spec: IndexSpec = { v: 2, key: raw.key, name, ...options };
  return isSearchSpec(spec) ? normalizeSearchSpec(spec) : spec;
}

/** Returns false when an identical index already exists; throws on a conflicting one. */
function addIndex(collection: Collection, spec: IndexSpec): boolean {
  const byName = collection.indexes.get(spec.name) ?? collection.searchIndexes.get(spec.name);
  if (byName) {
    if (sameOptions(byName.spec, spec)) return false;
    throw new MongoError(
      json(byName.spec.key) === json(spec.key) ? 'IndexOptionsConflict' : 'IndexKeySpecsConflict',
      `An existing index has the same name as the requested index. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`,
    );
  }
  checkSingleTextIndex(collection, spec);
  const twin = [...collection.maintainedIndexes()].find((index) => sameIdentity(index.spec, spec));
  if (twin) throw new MongoError('IndexOptionsConflict', `Index already exists with a different name: ${twin.name}`);
  collection.createIndex(spec);
  return true;
}

/** A collection has at most one text index. */
function checkSingleTextIndex(collection: Collection, spec: IndexSpec): void {
  if (!('_fts' in spec.key)) return;
  const existing = [...collection.searchIndexes.values()].find((index) => '_fts' in index.spec.key);
  if (!existing) return;
  throw new MongoError(
    'IndexOptionsConflict',
    'An equivalent index already exists with a different name and options. ' +
      `Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing.spec)}`,
  );
}

async function createIndexes(command: Doc, context: CommandContext): Promise<Doc> {
  const name = collectionName(command, 'createIndexes');
  const existed = context.engine.collection(context.db, name) !== undefined;
  const collection = context.engine.ensure(context.db, name);
  const before = collection.indexes.size + collection.searchIndexes.size;
  const specs = ((command.indexes ?? []) as Doc[]).map((raw) => normalizeSpec(raw, collection.options.collation));
  const created = specs.filter((spec) => addIndex(collection, spec)).length;
  collection.saveMeta();
  await context.engine.flush();
  const counts = { numIndexesBefore: before, numIndexesAfter: collection.indexes.size + collection.searchIndexes.size };
  if (created === 0) return { ...counts, note: 'all indexes already exist' };
  return { createdCollectionAutomatically: !existed, ...counts };
}

function requireCollection(context: CommandContext, name: string): Collection {
  const collection = context.engine.collection(context.db, name);
  if (!collection) throw new MongoError('NamespaceNotFound', `ns does not exist: ${context.db}.${name}`);
  return collection;
}

function listIndexes(command: Doc, context: CommandContext): Doc {
  const collection = requireCollection(context, collectionName(command, 'listIndexes'));
  const clustered = collection.options.clusteredIndex;
  // A clustered collection lists its clustered index in place of the `_id_` index.
  const specs = [...collection.maintainedIndexes()].map((index) =>
    index.name === '_id_' && isDoc(clustered) ? { ...clustered, clustered: true } : index.spec,
  );
  const batchSize = (command.cursor as Doc | undefined)?.batchSize;
  return context.cursors.open(collection.ns, specs, batchSize === undefined ? undefined : Number(batchSize));
}

function indexNamesToDrop(collection: Collection, target: unknown): string[] {
  const all = [...collection.maintainedIndexes()];
  if (target === '*') return all.map((index) => index.name).filter((name) => name !== '_id_');
  const byKey = (key: Doc): string[] =>
    all.filter((index) => JSON.stringify(index.spec.key) === JSON.stringify(key)).map((index) => index.name);
  const names = Array.isArray(target) ? target.map(String) : isDoc(target) ? byKey(target) : [String(target)];
  if (names.length === 0 || names.some((name) => !all.some((index) => index.name === name))) {
    throw new MongoError(
      'IndexNotFound',
      `index not found with name [${String(isDoc(target) ? JSON.stringify(target) : target)}]`,
    );
  }
  if (names.includes('_id_')) throw new MongoError('InvalidOptions', 'cannot drop _id index');
  return names;
}

async function dropIndexes(command: Doc, context: CommandContext): Promise<Doc> {
  const collection = requireCollection(context, collectionName(command, 'dropIndexes'));
  const before = collection.indexes.size + collection.searchIndexes.size;
  for (const name of indexNamesToDrop(collection, command.index)) collection.dropIndex(name);
  collection.saveMeta();
  await context.engine.flush();
  return { nIndexesWas: before };
}

export const indexCommands: CommandTable = { createIndexes, listIndexes, dropIndexes };

import { Query } from 'mingo/query';
import { MongoError } from '../errors';
import { ID_INDEX } from '../indexes/index-spec';
import { fullCollation } from '../query/collation';
import { mingoOptions } from '../query/mingo-options';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import { collMod } from './coll-mod';
import type { CommandContext, CommandTable } from './context';
import { collectionName } from './env';

const CREATE_OPTION_KEYS = [
  'viewOn',
  'pipeline',
  'validator',
  'validationLevel',
  'validationAction',
  'capped',
  'size',
  'max',
  'collation',
  'timeseries',
  'expireAfterSeconds',
  'clusteredIndex',
  'changeStreamPreAndPostImages',
];

/** MongoDB lists views, time series collections (created with `timeseries`) and plain collections apart. */
function collectionType(collection: Collection): string {
  if (collection.isView) return 'view';
  return isDoc(collection.options.timeseries) ? 'timeseries' : 'collection';
}

function collectionInfo(collection: Collection, nameOnly: boolean): Doc {
  const type = collectionType(collection);
  if (nameOnly) return { name: collection.name, type };
  if (collection.isView) return { name: collection.name, type, options: collection.options, info: { readOnly: true } };
  const info = { name: collection.name, type, options: collection.options, info: { readOnly: false } };
  return isDoc(collection.options.clusteredIndex) || type === 'timeseries' ? info : { ...info, idIndex: ID_INDEX };
}

function listCollections(command: Doc, context: CommandContext): Doc {
  const nameOnly = command.nameOnly === true;
  const infos = context.engine.list(context.db).map((collection) => collectionInfo(collection, nameOnly));
  const filtered = new Query(command.filter ?? {}, mingoOptions()).find<Doc>(infos).all();
  const batchSize = (command.cursor as Doc | undefined)?.batchSize;
  return context.cursors.open(
    `${context.db}.$cmd.listCollections`,
    filtered,
    batchSize === undefined ? undefined : Number(batchSize),
  );
}

function pickOptions(command: Doc): Doc {
  const options = Object.fromEntries(
    CREATE_OPTION_KEYS.filter((key) => command[key] !== undefined).map((key) => [key, command[key]]),
  );
  if (isDoc(options.collation)) options.collation = fullCollation(options.collation);
  if (options.collation === undefined) delete options.collation;
  if (isDoc(options.clusteredIndex)) options.clusteredIndex = clusteredIndex(options.clusteredIndex);
  if (isDoc(options.timeseries)) options.timeseries = timeseriesOptions(options.timeseries);
  return options;
}

/** A clustered collection is ordered by `_id`, the only key MongoDB allows, and unique. */
function clusteredIndex(spec: Doc): Doc {
  if (JSON.stringify(spec.key) !== '{"_id":1}')
    throw new MongoError('InvalidOptions', 'The clusteredIndex option is only supported for key: {_id: 1}');
  if (spec.unique !== true)
    throw new MongoError('InvalidOptions', "The 'clusteredIndex' option 'unique' field must be true");
  return { v: 2, ...spec, name: spec.name ?? '_id_' };
}

/** The span of a bucket per granularity, which MongoDB fills in and lists (documents are not bucketed here). */
const BUCKET_SPAN_SECONDS: Record<string, number> = { seconds: 3600, minutes: 86400, hours: 2592000 };

function timeseriesOptions(spec: Doc): Doc {
  if (typeof spec.timeField !== 'string')
    throw new MongoError('Location40414', "BSON field 'create.timeseries.timeField' is missing but a required field");
  const granularity = spec.granularity ?? 'seconds';
  const bucketMaxSpanSeconds = BUCKET_SPAN_SECONDS[String(granularity)];
  if (bucketMaxSpanSeconds === undefined)
    throw new MongoError(
      'BadValue',
      `Enumeration value '${String(granularity)}' for field 'create.timeseries.granularity' is not a valid value.`,
    );
  return { ...spec, granularity, bucketMaxSpanSeconds };
}

async function create(command: Doc, context: CommandContext): Promise<Doc> {
  // `capped` is read as a boolean the way MongoDB reads it: any number but 0 is true.
  if (command.capped !== undefined && command.capped !== false && command.capped !== 0 && command.size === undefined)
    throw new MongoError('InvalidOptions', "the 'size' field is required when 'capped' is true");
  context.engine.create(context.db, collectionName(command, 'create'), pickOptions(command));
  await context.engine.flush();
  return {};
}

async function drop(command: Doc, context: CommandContext): Promise<Doc> {
  const name = collectionName(command, 'drop');
  const collection = context.engine.collection(context.db, name);
  context.engine.drop(context.db, name);
  await context.engine.flush();
  return collection ? { ns: collection.ns, nIndexesWas: collection.indexes.size } : {};
}

async function dropDatabase(_command: Doc, context: CommandContext): Promise<Doc> {
  context.engine.dropDatabase(context.db);
  await context.engine.flush();
  return { dropped: context.db };
}

function listDatabases(command: Doc, context: CommandContext): Doc {
  const databases = context.engine.databases().map((name) => ({ name, sizeOnDisk: 0, empty: false }));
  const filtered = new Query(command.filter ?? {}, mingoOptions()).find<Doc>(databases).all();
  if (command.nameOnly) return { databases: filtered.map(({ name }) => ({ name })) };
  return { databases: filtered, totalSize: 0, totalSizeMb: 0 };
}

function splitNamespace(ns: unknown): [string, string] {
  const text = String(ns);
  const dot = text.indexOf('.');
  if (dot <= 0) throw new MongoError('InvalidNamespace', `Invalid namespace specified '${text}'`);
  return [text.slice(0, dot), text.slice(dot + 1)];
}

async function renameCollection(command: Doc, context: CommandContext): Promise<Doc> {
  const [fromDb, fromName] = splitNamespace(command.renameCollection);
  const [toDb, toName] = splitNamespace(command.to);
  const source = context.engine.collection(fromDb, fromName);
  if (!source) throw new MongoError('NamespaceNotFound', 'Source collection does not exist');
  if (context.engine.collection(toDb, toName)) {
    if (!command.dropTarget) throw new MongoError('NamespaceExists', 'target namespace exists');
    context.engine.drop(toDb, toName);
  }
  context.engine.rename(source, toDb, toName);
  await context.engine.flush();
  return {};
}

export const collectionCommands: CommandTable = {
  listCollections,
  create,
  drop,
  dropDatabase,
  listDatabases,
  renameCollection,
  collMod,
};

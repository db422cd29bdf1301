import { BadRequestException, ForbiddenException, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection, mongo } from 'mongoose';
import { assertAccess } from '../../common/access';
import { isNonArrayObject } from '../../common/plain-object';
import { Role } from '../../common/principal';
import { redactSecrets } from '../../common/redaction';
import { RequestContext } from '../../common/request-context';
import { RequestHandlerRegistry, StompRequestHandler } from '../requests/request-handler-registry';
import { asClientError, clientQuery, intField } from './query-guard';
import { RawWriteHook } from './raw-write-hook';

type Collection = mongo.Collection<mongo.BSON.Document>;
type Operation = (collection: Collection, message: Record<string, unknown>) => Promise<unknown>;

const SYSTEM_DATABASES = new Set(['admin', 'local', 'config']);
const COLLECTION_NAME = /^[A-Za-z0-9_][\w.-]{0,119}$/;
const MAX_FIND = 200;
const MAX_INSERT = 1000;
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE']);

const OPERATIONS: Record<string, Operation> = {
  FIND: (collection, message) => {
    const sort: mongo.Sort =
      message.sort === undefined ? { _id: 1 } : clientQuery<mongo.Sort>(objectField(message, 'sort'), 'sort');
    return collection
      .find(filterOf(message))
      .sort(sort)
      .skip(intField(message, 'skip', 0, [0, Number.MAX_SAFE_INTEGER]))
      .limit(intField(message, 'limit', 20, [1, MAX_FIND]))
      .toArray();
  },
  COUNT: (collection, message) => collection.countDocuments(filterOf(message)),
  INSERT: async (collection, message) => {
    const documents = documentsOf(message);
    const { insertedCount, insertedIds } = await collection.insertMany(documents);
    return { insertedCount, insertedIds: Object.values(insertedIds) };
  },
  UPDATE: async (collection, message) => {
    const update = clientQuery<mongo.BSON.Document>(objectField(message, 'update'), 'update');
    const { matchedCount, modifiedCount } = await collection.updateMany(requiredFilter(message), update);
    return { matchedCount, modifiedCount };
  },
  DELETE: async (collection, message) => ({
    deletedCount: (await collection.deleteMany(requiredFilter(message))).deletedCount,
  }),
};

/**
 * `/request/document`: a DocumentRequestMessage `{databaseName, collectionName, requestType, filter?, document?,
 * documents?, update?, sort?, skip?, limit?}` on the application's own database. Reads as well as writes need
 * ADMIN: raw collections hold credentials and every user's data (public data goes through repositories). Answers
 * are redacted as every raw read is (`redactSecrets`): an administrator sees no password or token hash either.
 * UPDATE and DELETE need a non-empty filter.
 */
@Injectable()
export class DocumentRequestHandler implements StompRequestHandler, OnModuleInit {
  readonly channel = 'json';

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly registry: RequestHandlerRegistry,
    private readonly rawWrites: RawWriteHook,
  ) {}

  onModuleInit(): void {
    this.registry.register('/request/document', this);
  }

  async handle(message: Record<string, unknown>): Promise<unknown> {
    assertAccess(RequestContext.principal(), Role.ADMIN);
    const type = String(message.requestType);
    if (!Object.hasOwn(OPERATIONS, type))
      throw new BadRequestException(`requestType must be one of ${Object.keys(OPERATIONS).join(', ')}`);
    const collection = this.collectionOf(message);
    const operation = () => OPERATIONS[type](collection, message);
    const result = WRITES.has(type) ? this.writeThroughIndex(type, collection, message, operation) : operation();
    return result.then(
      (answer) => redactSecrets(answer),
      (error: unknown) => {
        throw asClientError(error);
      },
    );
  }

  /** Raw driver writes bypass the models' hooks: the catalogue refreshes the storefront index around them. */
  private writeThroughIndex(
    type: string,
    collection: Collection,
    message: Record<string, unknown>,
    operation: () => Promise<unknown>,
  ): Promise<unknown> {
    const filter = type === 'INSERT' ? undefined : requiredFilter(message);
    const inserted = (result: unknown) => (result as { insertedIds?: unknown[] }).insertedIds ?? [];
    return this.rawWrites.write(collection.collectionName, filter, operation, inserted);
  }

  private collectionOf({ databaseName, collectionName }: Record<string, unknown>): Collection {
    const db = this.connection.db;
    const own = db?.databaseName;
    const name = databaseName ?? own;
    if (!db || typeof name !== 'string' || SYSTEM_DATABASES.has(name) || name !== own) {
      throw new ForbiddenException(`Database ${String(databaseName)} is not accessible`);
    }
    if (
      typeof collectionName !== 'string' ||
      !COLLECTION_NAME.test(collectionName) ||
      collectionName.startsWith('system.')
    ) {
      throw new BadRequestException('collectionName must name a collection');
    }
    return db.collection(collectionName);
  }
}

function objectField(message: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = message[name];
  if (!isNonArrayObject(value)) throw new BadRequestException(`${name} must be a JSON object`);
  return value;
}

function filterOf(message: Record<string, unknown>): mongo.Filter<mongo.BSON.Document> {
  return message.filter === undefined ? {} : clientQuery(objectField(message, 'filter'), 'filter');
}

function requiredFilter(message: Record<string, unknown>): mongo.Filter<mongo.BSON.Document> {
  const filter = filterOf(message);
  if (Object.keys(filter).length === 0) throw new BadRequestException('filter must not be empty');
  return filter;
}

function documentsOf(message: Record<string, unknown>): mongo.BSON.Document[] {
  const raw = message.documents ?? [objectField(message, 'document')];
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_INSERT || !raw.every(isNonArrayObject)) {
    throw new BadRequestException(`documents must be 1 to ${MAX_INSERT} JSON objects`);
  }
  return clientQuery<mongo.BSON.Document[]>(raw, 'documents');
}

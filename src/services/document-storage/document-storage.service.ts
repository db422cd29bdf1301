import { BadRequestException, NotFoundException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection, mongo } from 'mongoose';
import { Bean, Exposed } from '../../bean';
import { objectIdOrText, toObjectId } from '../../common/mongo/object-id';
import { Role } from '../../common/principal';
import { redactSecrets } from '../../common/redaction';
import { BinaryStore, StoredBinary } from '../binaries/binary-store';
import { StorefrontRawWrites } from '../catalogue/storefront-raw-writes';
import { parseBinaryFilter } from './binary-filter';
import { assertCollectionName, assertOwnDatabase } from './database-guard';

/** Documents `getCollection` shows, and the largest page of `getCollectionPage`. */
const SAMPLE_SIZE = 100;

export interface DocumentCollection {
  database: string;
  name: string;
  count: number;
  /** The first documents (at most 100; page with `getCollectionPage` for the rest), secrets redacted. */
  documents: unknown[];
}

/** One page of a collection's documents in `_id` order, secrets redacted. */
export interface DocumentPage {
  items: unknown[];
  /** 0-based. */
  page: number;
  size: number;
  /** Documents in the collection (MongoDB's count from metadata, as `getCollection`'s `count`). */
  total: number;
}

export interface DocumentDatabase {
  name: string;
  collections: string[];
  buckets: string[];
}

export interface BinaryBucket {
  database: string;
  name: string;
  count: number;
  totalSize: number;
  files: BinaryFileView[];
}

export interface BinaryFileView {
  id: string;
  filename: string;
  length: number;
  uploadDate: Date;
  metadata: unknown;
}

/** A document and binary browser over the application's own database (never MongoDB's system databases). */
@Bean('documentStorageServiceImpl', Role.ADMIN)
export class DocumentStorageService {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly binaries: BinaryStore,
    private readonly storefront: StorefrontRawWrites,
  ) {}

  @Exposed(['String', 'String'])
  async getCollection(dbName: string, collectionName: string): Promise<DocumentCollection> {
    const collection = await this.collection(dbName, collectionName);
    const [count, documents] = await Promise.all([
      collection.estimatedDocumentCount(),
      collection.find().limit(SAMPLE_SIZE).toArray(),
    ]);
    return { database: dbName, name: collectionName, count, documents: documents.map((doc) => redactSecrets(doc)) };
  }

  /**
   * Page `page` (0-based) of `size` documents (1..100) in `_id` order: a stable order, so that paging through an
   * unchanged collection reaches every document exactly once.
   * @throws BadRequestException for a negative page or a size out of range
   */
  @Exposed(['String', 'String', 'int', 'int'])
  async getCollectionPage(dbName: string, collectionName: string, page: number, size: number): Promise<DocumentPage> {
    if (page < 0) throw new BadRequestException('page must be 0 or more');
    if (size < 1 || size > SAMPLE_SIZE) throw new BadRequestException(`size must be from 1 to ${SAMPLE_SIZE}`);
    const collection = await this.collection(dbName, collectionName);
    const [total, documents] = await Promise.all([
      collection.estimatedDocumentCount(),
      collection
        .find()
        .sort({ _id: 1 })
        .skip(page * size)
        .limit(size)
        .toArray(),
    ]);
    return { items: documents.map((doc) => redactSecrets(doc)), page, size, total };
  }

  @Exposed(['String'])
  async getCollections(dbName: string): Promise<Record<string, string>[]> {
    assertOwnDatabase(dbName, this.db().databaseName);
    const collections = await this.db().listCollections({}, { nameOnly: true }).toArray();
    return collections
      .filter((c) => !c.name.startsWith('system.'))
      .map((c) => ({ name: c.name, type: c.type ?? 'collection' }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  @Exposed(['String'])
  async getDatabase(dbName: string): Promise<DocumentDatabase> {
    const collections = (await this.getCollections(dbName)).map((c) => c.name);
    const buckets = collections
      .filter((name) => name.endsWith('.files'))
      .map((name) => name.slice(0, -'.files'.length));
    return { name: dbName, collections, buckets };
  }

  /** Removes one document by id (an ObjectId when it is 24 hex digits, else the string itself). */
  @Exposed(['String', 'String', 'String'])
  async removeDocument(dbName: string, collectionName: string, id: string): Promise<void> {
    if (/\.(files|chunks)$/.test(collectionName))
      throw new BadRequestException('Binaries are removed with removeBinary');
    const collection = await this.collection(dbName, collectionName);
    const _id = objectIdOrText(id);
    const filter = { _id } as mongo.Filter<mongo.Document>;
    // A raw driver call: the catalogue models' hooks do not see it.
    const { deletedCount } = await this.storefront.write(collectionName, filter, () => collection.deleteOne(filter));
    if (deletedCount === 0) throw new NotFoundException(`Document ${id} not found in ${collectionName}`);
  }

  /** The bytes of an uploaded asset. */
  @Exposed(['String'])
  downloadBinary(id: string): Promise<Buffer> {
    return this.binaries.get(toObjectId(id, 'id')).then((file) => this.binaries.read(file._id));
  }

  @Exposed(['String', 'String'])
  async getBinaryStorage(dbName: string, binaryCollection: string): Promise<BinaryBucket> {
    await this.assertBucket(dbName, binaryCollection);
    const files = await this.binaries.list({}, binaryCollection, SAMPLE_SIZE);
    const all = await this.binaries
      .bucket(binaryCollection)
      .find({}, { projection: { length: 1 } })
      .toArray();
    return {
      database: dbName,
      name: binaryCollection,
      count: all.length,
      totalSize: all.reduce((sum, file) => sum + file.length, 0),
      files: files.map(toFileView),
    };
  }

  /** Removes the binaries of a bucket matching `json` (equality on _id, filename, contentType or metadata fields). */
  @Exposed(['String', 'String', 'String'], { name: 'removeBinary' })
  async removeMatchingBinaries(dbName: string, binStorageName: string, json: string): Promise<void> {
    const filter = parseBinaryFilter(json);
    await this.assertBucket(dbName, binStorageName);
    const files = await this.binaries.list(filter, binStorageName, 10_000);
    if (files.length === 0) throw new NotFoundException(`No binary in ${binStorageName} matches ${json}`);
    for (const file of files) await this.binaries.remove(file._id, binStorageName);
  }

  /** Removes an uploaded asset. */
  @Exposed(['String'], { name: 'removeBinary' })
  removeBinary(id: string): Promise<void> {
    return this.binaries.remove(toObjectId(id, 'id'));
  }

  private async collection(dbName: string, collectionName: string): Promise<mongo.Collection> {
    assertOwnDatabase(dbName, this.db().databaseName);
    assertCollectionName(collectionName);
    const exists = await this.db().listCollections({ name: collectionName }, { nameOnly: true }).hasNext();
    if (!exists) throw new NotFoundException(`Collection "${collectionName}" not found`);
    return this.db().collection(collectionName);
  }

  private async assertBucket(dbName: string, bucket: string): Promise<void> {
    assertOwnDatabase(dbName, this.db().databaseName);
    assertCollectionName(bucket, 'bucket name');
    const exists = await this.db()
      .listCollections({ name: `${bucket}.files` }, { nameOnly: true })
      .hasNext();
    if (!exists) throw new NotFoundException(`Bucket "${bucket}" not found`);
  }

  private db(): mongo.Db {
    const db = this.connection.db;
    if (!db) throw new Error('The database connection is not open');
    return db;
  }
}

function toFileView(file: StoredBinary): BinaryFileView {
  const { filename, length, uploadDate } = file;
  return { id: file._id.toHexString(), filename, length, uploadDate, metadata: redactSecrets(file.metadata ?? {}) };
}

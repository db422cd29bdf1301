import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection, mongo, Types } from 'mongoose';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The GridFS bucket that uploaded site assets go to; `downloadBinary(id)` and `removeBinary(id)` use it. */
export const ASSETS_BUCKET = 'assets';

export type StoredBinary = mongo.GridFSFile;

export interface BinaryRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/** Binaries in GridFS buckets of the application database. */
@Injectable()
export class BinaryStore {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  bucket(name = ASSETS_BUCKET): mongo.GridFSBucket {
    return new mongo.GridFSBucket(this.db(), { bucketName: name });
  }

  async save(
    content: Buffer,
    filename: string,
    metadata: Record<string, unknown>,
    bucket = ASSETS_BUCKET,
  ): Promise<StoredBinary> {
    const upload = this.bucket(bucket).openUploadStream(filename, { metadata });
    await pipeline(Readable.from([content]), upload);
    return (await this.find(upload.id, bucket))!;
  }

  find(id: Types.ObjectId, bucket = ASSETS_BUCKET, filter: Record<string, unknown> = {}): Promise<StoredBinary | null> {
    return this.bucket(bucket)
      .find({ ...filter, _id: id })
      .next();
  }

  /** @throws NotFoundException */
  async get(id: Types.ObjectId, bucket = ASSETS_BUCKET, filter: Record<string, unknown> = {}): Promise<StoredBinary> {
    const file = await this.find(id, bucket, filter);
    if (!file) throw new NotFoundException(`Binary ${id.toHexString()} not found`);
    return file;
  }

  list(filter: Record<string, unknown>, bucket = ASSETS_BUCKET, limit = 1000): Promise<StoredBinary[]> {
    return this.bucket(bucket)
      .find(filter, { sort: { uploadDate: -1 }, limit })
      .toArray();
  }

  open(id: Types.ObjectId, range?: BinaryRange, bucket = ASSETS_BUCKET): Readable {
    return this.bucket(bucket).openDownloadStream(id, range ? { start: range.start, end: range.end + 1 } : {});
  }

  async read(id: Types.ObjectId, bucket = ASSETS_BUCKET): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.open(id, undefined, bucket)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** @throws NotFoundException */
  async remove(id: Types.ObjectId, bucket = ASSETS_BUCKET): Promise<void> {
    await this.get(id, bucket);
    await this.bucket(bucket).delete(id);
  }

  private db(): mongo.Db {
    const db = this.connection.db;
    if (!db) throw new Error('The database connection is not open');
    return db;
  }
}

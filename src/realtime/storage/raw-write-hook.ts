import type { mongo } from 'mongoose';

/**
 * Asked around every write of the administrators' document browser (`/request/document`: raw driver calls by
 * collection name, which bypass the models' hooks). The catalogue binds its storefront refresh here
 * (`StorefrontRawWritesModule`): realtime sits below the feature modules and imports none of them.
 */
export abstract class RawWriteHook {
  /**
   * Runs `write` on `collectionName`, whose documents matching `filter` it changes or deletes; `inserted` gives the
   * ids a write inserted. The write's own error is the one thrown.
   */
  abstract write<T>(
    collectionName: string,
    filter: mongo.Filter<mongo.BSON.Document> | undefined,
    write: () => Promise<T>,
    inserted?: (result: T) => unknown[],
  ): Promise<T>;
}

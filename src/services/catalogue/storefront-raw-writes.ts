import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection, mongo, Types } from 'mongoose';
import { RawWriteHook } from '../../realtime/storage/raw-write-hook';
import {
  AffectedDoc,
  attributesWritten,
  namedProduct,
  ownIds,
  ProductsOf,
  productsOfSellers,
} from './storefront-index.hooks';
import { StorefrontIndexer } from './storefront-indexer';

/** The catalogue collections whose documents show in storefront entries, and how they lead to the products. */
const SOURCES: Record<string, ProductsOf> = {
  products: ownIds,
  skus: namedProduct('skus'),
  seller_skus: namedProduct('seller_skus'),
  sellers: productsOfSellers,
  attributes: attributesWritten,
};

/**
 * For writes that bypass the catalogue models (raw driver calls by collection name, the administrators' document
 * browser): the documents a write's filter matches are read before it, and the entries of their products (and of
 * inserted documents' products) are refreshed after it, as the models' hooks do. Other collections cost nothing.
 */
@Injectable()
export class StorefrontRawWrites extends RawWriteHook {
  constructor(@InjectConnection() private readonly connection: Connection) {
    super();
  }

  /**
   * Runs `write` on `collectionName`, whose documents matching `filter` it changes or deletes; `inserted` gives the
   * ids a write inserted. The refresh also runs when the write fails (it may have written part); the write's own
   * error is the one thrown.
   */
  async write<T>(
    collectionName: string,
    filter: mongo.Filter<mongo.BSON.Document> | undefined,
    write: () => Promise<T>,
    inserted: (result: T) => unknown[] = () => [],
  ): Promise<T> {
    const productsOf = SOURCES[collectionName];
    if (!productsOf) return write();
    const before = filter ? await this.matched(collectionName, filter) : [];
    const refresh = (ids: unknown[]) => this.refresh(productsOf, [...before.map((doc) => doc._id), ...ids], before);
    try {
      const result = await write();
      await refresh(inserted(result));
      return result;
    } catch (error) {
      await refresh([]).catch(() => undefined);
      throw error;
    }
  }

  private matched(collectionName: string, filter: mongo.Filter<mongo.BSON.Document>): Promise<AffectedDoc[]> {
    const found = this.connection.collection(collectionName).find(filter, { projection: { product: 1 } });
    return found.toArray() as Promise<unknown[]> as Promise<AffectedDoc[]>;
  }

  private async refresh(productsOf: ProductsOf, ids: unknown[], before: AffectedDoc[]): Promise<void> {
    const objectIds = ids.filter((id): id is Types.ObjectId => id instanceof Types.ObjectId);
    if (objectIds.length === 0 && before.length === 0) return;
    await new StorefrontIndexer(this.connection).refresh(await productsOf(this.connection, objectIds, before));
  }
}

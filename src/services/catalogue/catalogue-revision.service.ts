import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Connection, Model } from 'mongoose';
import { CatalogueRevision } from './catalogue-revision.schema';

const REVISION_ID = 'catalogue';

/**
 * Collections of the catalogue schemas (their `collection` options; the schemas import this file, so the names
 * are repeated here); a write to any of them changes what the storefront filters show.
 */
export const CATALOGUE_COLLECTIONS: ReadonlySet<string> = new Set([
  'products',
  'skus',
  'sellers',
  'seller_skus',
  'attributes',
]);

/**
 * The catalogue revision kept in the database: every write to a catalogue collection bumps it after the write
 * (mongoose middleware, see `catalogue-revision.hooks.ts`), so every app instance sharing the database sees a
 * change on its next read. 0 until the first write.
 */
@Injectable()
export class CatalogueRevisionService {
  constructor(@InjectModel(CatalogueRevision.name) private readonly revisions: Model<CatalogueRevision>) {}

  /**
   * Read on every storefront filter call, so through the driver's collection: a mongoose query (casting, options,
   * middleware) would cost about as much again as the look-up itself.
   */
  async current(): Promise<number> {
    const filter = { _id: REVISION_ID as never };
    const found = await this.revisions.collection.findOne(filter, { projection: { revision: 1 } });
    return typeof found?.revision === 'number' ? found.revision : 0;
  }

  bump(): Promise<void> {
    return bumpRevision(this.revisions);
  }

  /** For writes that bypass the catalogue models (raw driver calls by collection name). */
  async afterRawWrite(collectionName: string): Promise<void> {
    if (CATALOGUE_COLLECTIONS.has(collectionName)) await this.bump();
  }
}

/** Bumps the revision through the model registered on `connection` (for hooks, which have no injector). */
export function bumpRevisionOn(connection: Connection): Promise<void> {
  return bumpRevision(connection.model<CatalogueRevision>(CatalogueRevision.name));
}

async function bumpRevision(revisions: Model<CatalogueRevision>): Promise<void> {
  await revisions.updateOne({ _id: REVISION_ID }, { $inc: { revision: 1 } }, { upsert: true }).exec();
}

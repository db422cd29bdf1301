import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection, mongo, Types } from 'mongoose';
import { renewAttributesRevision } from './attribute-revision';
import { ALL_CURRENCIES } from './storefront-entry';
import { STOREFRONT_ENTRY, STOREFRONT_FACET } from './storefront-index.schema';
import { StorefrontIndexer } from './storefront-indexer';

const BATCH = 500;
const CHECKPOINTS = 'storefront_reindex';
const CHECKPOINT_ID = 'progress';

type Doc = mongo.BSON.Document;

/** Where a rebuild is: the phase, and the last product id done in it. */
interface Checkpoint {
  phase: 'products' | 'orphans';
  after: Types.ObjectId | null;
  done: number;
}

export type ReindexProgress = (phase: string, done: number, total: number) => void;

/** Progress printed one line per step, `phase: done/total (seconds since this call)`, for the command-line tools. */
export function printedProgress(): ReindexProgress {
  const started = Date.now();
  return (phase, done, total) => {
    process.stdout.write(`${phase}: ${done}/${total} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  };
}

/**
 * Rebuilds the storefront index (`npm run reindex`): every product's entries recomputed in `_id` order, then the
 * entries of products no longer there turned into tombstones (a sweep of the all-currencies entries), then every filter counter recounted from the entries.
 * A checkpoint after each batch (`storefront_reindex`) lets a rebuild killed half-way resume where it stopped; the
 * writes are the ones the hooks make, so the shop keeps trading meanwhile. The recount is the one step a concurrent
 * write can race: a product changing during it may leave its counters one off until the next rebuild.
 * It first makes the two collections' indexes those their schemas declare: missing ones are built and ones an
 * earlier version declared, or any added by hand, are dropped (they only cost writes).
 */
@Injectable()
export class StorefrontReindex {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** @param restart drop a checkpoint left by a killed run and start over */
  async run(progress: ReindexProgress, restart = false): Promise<void> {
    await this.syncIndexes(progress);
    if (restart) await this.checkpoints().deleteOne({ _id: CHECKPOINT_ID } as Doc);
    let checkpoint = await this.checkpoint();
    if (checkpoint.phase === 'products') {
      await this.refreshAll('products', 'products', checkpoint, progress);
      checkpoint = { phase: 'orphans', after: null, done: 0 };
      await this.save(checkpoint);
    }
    await this.refreshAll('orphans', 'storefront_index', checkpoint, progress);
    await this.recountFacets();
    // Listing totals read the counters: cached listings are computed again after the recount.
    await new StorefrontIndexer(this.connection).renewListing();
    // Attributes loaded without the hooks (the seed's quiet load) are read again by every instance's filters.
    await renewAttributesRevision(this.connection);
    progress('counters', 1, 1);
    await this.checkpoints().deleteOne({ _id: CHECKPOINT_ID } as Doc);
  }

  /**
   * Indexes as declared: `syncIndexes` drops the others (not `_id_`). At start-up mongoose only creates missing
   * indexes, and dropping there would make instances of two versions in a rolling restart undo each other's.
   */
  private async syncIndexes(progress: ReindexProgress): Promise<void> {
    const models = [STOREFRONT_ENTRY, STOREFRONT_FACET].map((name) => this.connection.model(name));
    for (const [done, model] of models.entries()) {
      const dropped = await model.syncIndexes();
      if (dropped.length > 0) progress(`indexes dropped: ${dropped.join(', ')}`, done + 1, models.length);
    }
  }

  /**
   * Refreshes the products of `collection` (products: their ids; the index: its all-currencies entries' products,
   * which turns those of deleted products into tombstones) in `_id` order from the checkpoint on.
   */
  private async refreshAll(
    phase: Checkpoint['phase'],
    collection: string,
    from: Checkpoint,
    progress: ReindexProgress,
  ) {
    const indexer = new StorefrontIndexer(this.connection);
    const scope = collection === 'products' ? {} : { scope: ALL_CURRENCIES };
    const total = await this.connection.collection(collection).countDocuments(scope);
    let { after, done } = from;
    for (;;) {
      const filter = {
        ...scope,
        ...(after ? { _id: { $gt: collection === 'products' ? after : String(after) } } : {}),
      };
      const batch = await this.connection
        .collection(collection)
        .find(filter as Doc, { projection: { _id: 1, product: 1 } })
        .sort({ _id: 1 })
        .limit(BATCH)
        .toArray();
      if (batch.length === 0) return;
      const ids = batch.map((doc) => (collection === 'products' ? doc._id : doc.product) as Types.ObjectId);
      await indexer.refresh(collection === 'products' ? ids : await this.missingProducts(ids));
      after = new Types.ObjectId(String(batch[batch.length - 1]._id));
      done += batch.length;
      await this.save({ phase, after, done });
      progress(phase, done, total);
    }
  }

  /** Those of `ids` that are no product (any more). */
  private async missingProducts(ids: Types.ObjectId[]): Promise<Types.ObjectId[]> {
    const found = await this.connection
      .collection('products')
      .find({ _id: { $in: ids } }, { projection: { _id: 1 } })
      .toArray();
    const present = new Set(found.map((doc) => String(doc._id)));
    return ids.filter((id) => !present.has(String(id)));
  }

  /** Sets every counter to the number of listed entries counting in it (zero for those none counts in). */
  private async recountFacets(): Promise<void> {
    const indexer = new StorefrontIndexer(this.connection);
    const counted = await indexer
      .index()
      .aggregate<{ _id: string; count: number }>([
        { $match: { scope: ALL_CURRENCIES, listed: true } },
        { $unwind: '$facets' },
        { $group: { _id: '$facets', count: { $sum: 1 } } },
      ])
      .toArray();
    const counts = new Map(counted.map((row) => [row._id, row.count]));
    const existing = await indexer
      .facets()
      .find({}, { projection: { _id: 1 } })
      .toArray();
    const keys = new Set([...counts.keys(), ...existing.map((row) => String(row._id))]);
    const updates = [...keys].map((key): mongo.AnyBulkWriteOperation<Doc> => {
      const at = key.indexOf('|');
      const fields = { facet: key.slice(0, at), value: key.slice(at + 1), count: counts.get(key) ?? 0 };
      return { updateOne: { filter: { _id: key } as Doc, update: { $set: fields }, upsert: true } };
    });
    for (let start = 0; start < updates.length; start += BATCH) {
      await indexer.facets().bulkWrite(updates.slice(start, start + BATCH), { ordered: false });
    }
  }

  private async checkpoint(): Promise<Checkpoint> {
    const found = await this.checkpoints().findOne({ _id: CHECKPOINT_ID } as Doc);
    return found ? (found as unknown as Checkpoint) : { phase: 'products', after: null, done: 0 };
  }

  private async save(checkpoint: Checkpoint): Promise<void> {
    await this.checkpoints().replaceOne({ _id: CHECKPOINT_ID } as Doc, checkpoint, { upsert: true });
  }

  private checkpoints(): mongo.Collection<Doc> {
    return this.connection.collection(CHECKPOINTS);
  }
}

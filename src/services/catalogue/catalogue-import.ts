import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import { Attribute } from './attribute.schema';
import { OfferRepository } from './offer.repository';
import { Product } from './product.schema';
import { Seller } from './seller.schema';
import { Sku } from './sku.schema';
import { withoutIndexRefresh } from './storefront-index.hooks';
import { ReindexProgress, StorefrontReindex } from './storefront-reindex';

/**
 * The catalogue's port for loading fixed records (the demo marketplace): a record whose id is already there is
 * left as it is, so a load interrupted half-way completes without changing what was loaded.
 */
@Injectable()
export class CatalogueImport {
  constructor(
    @InjectModel(Attribute.name) private readonly attributes: Model<Attribute>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(Sku.name) private readonly skus: Model<Sku>,
    private readonly offers: OfferRepository,
    @InjectModel(Seller.name) private readonly sellers: Model<Seller>,
    private readonly reindex: StorefrontReindex,
  ) {}

  /**
   * Runs `load` (inserts through this port) without refreshing the storefront index per write, then rebuilds the
   * index once (`StorefrontReindex`: in batches, reporting to `progress`, resuming a rebuild a killed run left).
   * A load that fails leaves the rebuild to its next run (or `npm run reindex`).
   */
  async loadThenReindex<T>(load: () => Promise<T>, progress: ReindexProgress): Promise<T> {
    const loaded = await withoutIndexRefresh(load);
    await this.reindex.run(progress);
    return loaded;
  }

  /**
   * Attributes, products, SKUs and offers: everything but the sellers, which need their accounts first. One
   * collection after the other, each reported to `progress` when loaded.
   */
  async insertMissingCatalogue(
    records: Record<'attributes' | 'products' | 'skus' | 'offers', FixedRecord[]>,
    progress: ReindexProgress,
  ) {
    const loaded = (name: keyof typeof records) =>
      progress(`loaded ${name}`, records[name].length, records[name].length);
    // Each model named where it is written, so that the one-writer-per-collection check sees these writes.
    await insertMissing(this.attributes, records.attributes);
    loaded('attributes');
    await insertMissing(this.products, records.products);
    loaded('products');
    await insertMissing(this.skus, records.skus);
    loaded('skus');
    await this.offers.insertMissing(records.offers);
    loaded('offers');
  }

  insertMissingSellers(records: FixedRecord[]): Promise<void> {
    return insertMissing(this.sellers, records);
  }
}

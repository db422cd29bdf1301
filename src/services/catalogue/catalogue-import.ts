import { Injectable } from '@nestjs/common';
import { FixedRecord } from '../../database/insert-missing';
import { AttributeRepository } from './attribute.repository';
import { OfferRepository } from './offer.repository';
import { ProductRepository } from './product.repository';
import { SellerDirectory } from './seller-directory';
import { SkuRepository } from './sku.repository';
import { withoutIndexRefresh } from './storefront-index.hooks';
import { ReindexProgress, StorefrontReindex } from './storefront-reindex';

/**
 * The catalogue's port for loading fixed records (the demo marketplace): a record whose id is already there is
 * left as it is, so a load interrupted half-way completes without changing what was loaded.
 */
@Injectable()
export class CatalogueImport {
  constructor(
    private readonly attributes: AttributeRepository,
    private readonly products: ProductRepository,
    private readonly skus: SkuRepository,
    private readonly offers: OfferRepository,
    private readonly sellers: SellerDirectory,
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
    await this.attributes.insertMissing(records.attributes);
    loaded('attributes');
    await this.products.insertMissing(records.products);
    loaded('products');
    await this.skus.insertMissing(records.skus);
    loaded('skus');
    await this.offers.insertMissing(records.offers);
    loaded('offers');
  }

  insertMissingSellers(records: FixedRecord[]): Promise<void> {
    return this.sellers.insertMissing(records);
  }
}

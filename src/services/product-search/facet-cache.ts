import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Facet } from './facet-pipelines';

/** Facet rows kept on average per entry: results are held to `entries` × this many rows in all. */
const AVERAGE_FACETS_PER_ENTRY = 100;

/**
 * A read-through cache of storefront filter results for the current catalogue revision, which is read from the
 * database on every call (one `_id` look-up), so a write through any app instance sharing the database is seen by
 * the next call of every instance. Entries of other revisions are dropped as soon as a call reads a new one.
 * Bounded by `FACET_CACHE_ENTRIES` entries and, against large results, by a total number of facet rows.
 */
@Injectable()
export class FacetCache {
  private readonly entries: LRUCache<string, Facet[]> | undefined;
  private revision: number | undefined;

  constructor(
    config: AppConfig,
    private readonly catalogue: CatalogueRevisionService,
  ) {
    const max = config.facetCacheEntries;
    this.entries =
      max > 0
        ? new LRUCache({ max, maxSize: max * AVERAGE_FACETS_PER_ENTRY, sizeCalculation: (facets) => facets.length + 1 })
        : undefined;
  }

  /**
   * `compute()`'s result for `key` (a method name and its arguments) at the current catalogue revision; computed on
   * a miss and kept unless it failed or the revision changed meanwhile. Callers must not mutate the result.
   */
  async get(key: unknown[], compute: () => Promise<Facet[]>): Promise<Facet[]> {
    if (!this.entries) return compute();
    const revision = await this.catalogue.current();
    this.dropOtherRevisions(revision);
    const entryKey = JSON.stringify(key);
    const cached = this.entries.get(entryKey);
    if (cached) return cached;
    const facets = await compute();
    // A call that read a newer revision meanwhile dropped this one: a result of it would only take up room.
    if (this.revision === revision) this.entries.set(entryKey, facets);
    return facets;
  }

  /** Any other revision, also a lower one (a database restored or reset): only the current one is valid. */
  private dropOtherRevisions(revision: number): void {
    if (this.revision === revision) return;
    this.entries?.clear();
    this.revision = revision;
  }
}

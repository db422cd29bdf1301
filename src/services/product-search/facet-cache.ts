import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Facet } from './facet-pipelines';

/** Facet rows kept on average per entry: results are held to `entries` × this many rows in all. */
const AVERAGE_FACETS_PER_ENTRY = 100;

type Compute = () => Promise<Facet[]>;

/**
 * A read-through cache of storefront filter results for the current catalogue revision, which is read from the
 * database on every call (one `_id` look-up), so a write through any app instance sharing the database is seen by
 * the next call of every instance. Entries of other revisions are dropped as soon as a call reads a new one.
 * Bounded by `FACET_CACHE_ENTRIES` entries and, against large results, by a total number of facet rows.
 */
@Injectable()
export class FacetCache {
  private readonly entries: LRUCache<string, Facet[], Compute> | undefined;
  private revision: number | undefined;

  constructor(
    config: AppConfig,
    private readonly catalogue: CatalogueRevisionService,
  ) {
    const max = config.facetCacheEntries;
    this.entries = max > 0 ? newCache(max) : undefined;
  }

  /**
   * `compute()`'s result for `key` (a method name and its arguments) at the current catalogue revision. Concurrent
   * misses of one key share one computation; a failed one is not kept. Callers must not mutate the result.
   */
  async get(key: unknown[], compute: Compute): Promise<Facet[]> {
    if (!this.entries) return compute();
    this.dropOtherRevisions(await this.catalogue.current());
    return (await this.entries.fetch(JSON.stringify(key), { context: compute }))!;
  }

  /**
   * Any other revision, also a lower one (a database restored or reset): only the current one is valid. Clearing
   * also discards the results of computations still running: their callers get them, the cache does not keep them.
   */
  private dropOtherRevisions(revision: number): void {
    if (this.revision === revision) return;
    this.entries?.clear();
    this.revision = revision;
  }
}

function newCache(max: number): LRUCache<string, Facet[], Compute> {
  return new LRUCache<string, Facet[], Compute>({
    max,
    maxSize: max * AVERAGE_FACETS_PER_ENTRY,
    sizeCalculation: (facets) => facets.length + 1,
    ignoreFetchAbort: true,
    fetchMethod: (_key, _stale, { context }) => context(),
  });
}

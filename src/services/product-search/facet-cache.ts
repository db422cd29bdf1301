import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';

/** Rows kept on average per entry: results are held to `entries` × this many rows (facets, listed products) in all. */
const AVERAGE_FACETS_PER_ENTRY = 100;

type Compute = () => Promise<object>;

/**
 * A read-through cache of storefront results (filters, listings, product details) for the current catalogue revision, which is read from the
 * database on every call (one `_id` look-up), so a write through any app instance sharing the database is seen by
 * the next call of every instance. Entries of other revisions are dropped as soon as a call reads a new one.
 * Bounded by `FACET_CACHE_ENTRIES` entries and, against large results, by a total number of facet rows.
 */
@Injectable()
export class FacetCache {
  private readonly entries: LRUCache<string, object, Compute> | undefined;
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
  async get<T extends object>(key: unknown[], compute: () => Promise<T>): Promise<T> {
    if (!this.entries) return compute();
    this.dropOtherRevisions(await this.catalogue.current());
    return (await this.entries.fetch(JSON.stringify(key), { context: compute })) as T;
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

/** The rows of a result: a filter's facets, a listing's items, else one. */
function rowsOf(result: object): number {
  if (Array.isArray(result)) return result.length;
  const items = (result as { items?: unknown }).items;
  return Array.isArray(items) ? items.length : 0;
}

function newCache(max: number): LRUCache<string, object, Compute> {
  return new LRUCache<string, object, Compute>({
    max,
    maxSize: max * AVERAGE_FACETS_PER_ENTRY,
    sizeCalculation: (result) => rowsOf(result) + 1,
    ignoreFetchAbort: true,
    fetchMethod: (_key, _stale, { context }) => context(),
  });
}

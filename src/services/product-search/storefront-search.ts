import { Injectable } from '@nestjs/common';
import { relevanceTiers, searchKeysFor } from '../catalogue/search-terms';
import { ALL_CURRENCIES, StorefrontEntry } from '../catalogue/storefront-entry';
import { SearchMatch, StorefrontSearchReader } from '../catalogue/storefront-search-reader';
import { ListingSort } from './product-listing.dto';
import { INDEX_SORTS, ListingCriteria, ListingRow, relevance } from './storefront-listing';

/**
 * Matches of a search of several words ranked by relevance at most: the cheapest this many (price order, the
 * `search_price` index); the matches after them follow in price order. Ranking every match would read them all on
 * every page. (A one-word search ranks every match: up to this many so, beyond tier by tier, see `byTiers`.)
 */
export const RELEVANCE_CANDIDATES = 100;

/** A search page and its total. */
export interface SearchPage {
  items: ListingRow[];
  total: number;
}

/**
 * A text search without attribute conditions or price range: every row is its entry's cheapest in-stock offer, so
 * the page comes from the `search_*` index of its sort, stopping after the page, and the total from a count of the
 * index keys. See the catalogue README, "Search".
 */
@Injectable()
export class StorefrontSearch {
  constructor(private readonly reader: StorefrontSearchReader) {}

  /** Whether a listing is such a search (else the listing reads its candidates, see `listingRead`). */
  static answers(criteria: ListingCriteria, words: string[]): boolean {
    const priceRange = criteria.minPrice !== undefined || criteria.maxPrice !== undefined;
    return words.length > 0 && criteria.conditions.length === 0 && !priceRange;
  }

  async page(criteria: ListingCriteria, words: string[], sort: ListingSort | 'relevance'): Promise<SearchPage> {
    const match: SearchMatch = {
      scope: criteria.currency ?? ALL_CURRENCIES,
      keys: [...new Set(words.flatMap(searchKeysFor))],
      categories: criteria.categories,
    };
    const start = criteria.page * criteria.size;
    if (sort === 'relevance' && words.length === 1) {
      // The best tier's page and the total in one command: a page the best matches fill is the answer. Else, up to
      // the cap, the capped ranking is the whole ranking, in fewer reads than the tiers.
      const [best] = relevanceTiers(words[0]);
      const first = await this.reader.pageWithCount(
        { ...match, keys: best.keys },
        INDEX_SORTS.price,
        start,
        criteria.size,
        match,
      );
      const { total } = first;
      if (first.entries.length === criteria.size) return { items: scored(first.entries, best.score), total };
      const items =
        total <= RELEVANCE_CANDIDATES
          ? this.byCapped(match, words, start, criteria.size)
          : this.byTiers(match, words[0], start, criteria.size, first.entries);
      return { items: await items, total };
    }
    if (sort === 'relevance') {
      const [items, total] = await Promise.all([
        this.byCapped(match, words, start, criteria.size),
        this.reader.count(match),
      ]);
      return { items, total };
    }
    const { entries, total } = await this.reader.pageWithCount(match, INDEX_SORTS[sort], start, criteria.size);
    return { items: rowsOf(entries), total };
  }

  /**
   * One word with more matches than `RELEVANCE_CANDIDATES`: its matches tier by tier (`relevanceTiers`, best first),
   * each tier in price order (ties by id): a tier is its keys' entries less the tier before's, read from
   * `search_price` in order and stopping after the page. Where a tier ends before the page, the next tier's position
   * is the count of the keys so far (keys alone), unless the read already showed it. `bestRead`: the best tier's
   * page, read already (with the total).
   */
  private async byTiers(
    match: SearchMatch,
    word: string,
    start: number,
    size: number,
    bestRead: StorefrontEntry[],
  ): Promise<ListingRow[]> {
    const rows: ListingRow[] = [];
    let before = 0;
    let excluded: string[] | undefined;
    for (const [at, { score, keys }] of relevanceTiers(word).entries()) {
      const skip = Math.max(0, start - before);
      const limit = size - rows.length;
      const tier = { ...match, keys, excluded };
      const entries = at === 0 ? bestRead : await this.reader.page(tier, INDEX_SORTS.price, skip, limit);
      rows.push(...scored(entries, score));
      if (rows.length === size) break;
      const ended = entries.length > 0 || skip === 0;
      before = ended ? before + skip + entries.length : await this.reader.count({ ...match, keys });
      excluded = keys;
    }
    return rows;
  }

  /**
   * Several words, or one with `RELEVANCE_CANDIDATES` matches or fewer (then the same order as `byTiers`). Positions
   * below `RELEVANCE_CANDIDATES`: the cheapest matches, best first (ties in price order), read with what scores them,
   * then the page's in full; positions from there on: the matches after them in price order.
   */
  private async byCapped(match: SearchMatch, words: string[], start: number, size: number): Promise<ListingRow[]> {
    const end = start + size;
    const [ranked, after] = await Promise.all([
      start < RELEVANCE_CANDIDATES ? this.ranked(match, words, start, end) : [],
      end > RELEVANCE_CANDIDATES
        ? this.reader.page(
            match,
            INDEX_SORTS.price,
            Math.max(start, RELEVANCE_CANDIDATES),
            end - Math.max(start, RELEVANCE_CANDIDATES),
          )
        : [],
    ]);
    return [...ranked, ...rowsOf(after)];
  }

  private async ranked(match: SearchMatch, words: string[], start: number, end: number): Promise<ListingRow[]> {
    // Read in price order (ties by id) and sorted stably, so equal scores keep that order.
    const scored = (await this.reader.scored(match, INDEX_SORTS.price, RELEVANCE_CANDIDATES))
      .map((entry) => ({ id: entry._id, score: relevance(entry, words) }))
      .sort((a, b) => b.score - a.score)
      .slice(start, end);
    const full = new Map((await this.reader.byIds(scored.map((row) => row.id))).map((entry) => [entry._id, entry]));
    return scored.flatMap(({ id, score }) => {
      const entry = full.get(id);
      return entry?.cheapest ? [{ entry, offer: entry.cheapest, score }] : [];
    });
  }
}

/** `rowsOf`, each row with the relevance `score` of the tier it was read from. */
function scored(entries: StorefrontEntry[], score: number): ListingRow[] {
  return rowsOf(entries).map((row) => ({ ...row, score }));
}

/** Rows of entries read with their cheapest in-stock offer (entries computed before they kept it need a reindex). */
function rowsOf(entries: StorefrontEntry[]): ListingRow[] {
  return entries.flatMap((entry) => (entry.cheapest ? [{ entry, offer: entry.cheapest, score: 0 }] : []));
}

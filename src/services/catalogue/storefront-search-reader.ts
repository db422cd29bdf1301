import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection, mongo } from 'mongoose';
import { ALL_CURRENCIES, StorefrontEntry } from './storefront-entry';
import { INDEX_COLLECTION } from './storefront-indexer';
import { EntrySort, LISTING_FIELDS, pageStages, splitTotal, totalUnion } from './storefront-reader';

type Doc = mongo.BSON.Document;

/**
 * Listed entries of a scope having one of the search keys (`searchKeysFor`) and none of `excluded` (a better
 * relevance tier's, see `relevanceTiers`), optionally in one of the categories.
 */
export interface SearchMatch {
  scope: string;
  keys: string[];
  excluded?: string[];
  categories: string[];
}

/** What relevance scores an entry by (`relevance`): its names and search words. */
const SCORING_FIELDS = { name: 1, 'translations.name': 1, terms: 1 };

/**
 * The storefront search's reads of `storefront_index`, through the `search_*` indexes (scope, listed, search key,
 * then a sort): one scan per key looked up, merged in the sort's order, so a page stops after its entries.
 */
@Injectable()
export class StorefrontSearchReader {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** The matches `skip` to `skip + limit` in `sort` order (an index order), with what a listing row shows. */
  page(match: SearchMatch, sort: EntrySort, skip: number, limit: number): Promise<StorefrontEntry[]> {
    return this.entries()
      .find(filterOf(match), { projection: { ...LISTING_FIELDS, cheapest: 1 } })
      .sort(sort)
      .skip(skip)
      .limit(limit)
      .toArray() as Promise<unknown[]> as Promise<StorefrontEntry[]>;
  }

  /** `page` and the number of matches of `counted` (`count`; by default the page's), in one command (`totalUnion`). */
  async pageWithCount(
    match: SearchMatch,
    sort: EntrySort,
    skip: number,
    limit: number,
    counted: SearchMatch = match,
  ): Promise<{ entries: StorefrontEntry[]; total: number }> {
    const page = pageStages(filterOf(match), sort, skip, limit, { ...LISTING_FIELDS, cheapest: 1 });
    const found = await this.entries()
      .aggregate([...page, totalUnion(filterOf(counted))])
      .toArray();
    return splitTotal(found);
  }

  /**
   * The first `limit` matches in `sort` order with only what relevance scores them by (the caller ranks them and
   * reads its page in full with `byIds`).
   */
  scored(match: SearchMatch, sort: EntrySort, limit: number): Promise<StorefrontEntry[]> {
    return this.entries()
      .find(filterOf(match), { projection: SCORING_FIELDS })
      .sort(sort)
      .limit(limit)
      .toArray() as Promise<unknown[]> as Promise<StorefrontEntry[]>;
  }

  /** What a listing row shows of the entries `ids`, in no particular order. */
  async byIds(ids: string[]): Promise<StorefrontEntry[]> {
    if (ids.length === 0) return [];
    return this.entries()
      .find({ _id: { $in: ids } } as Doc, { projection: { ...LISTING_FIELDS, cheapest: 1 } })
      .toArray() as Promise<unknown[]> as Promise<StorefrontEntry[]>;
  }

  /**
   * How many entries match, counted inside the database: the `count` command, which counts index keys alone when
   * the bounds are the whole condition (no categories), each entry once. (`countDocuments` is an aggregation,
   * which reads every matching entry.)
   */
  async count(match: SearchMatch): Promise<number> {
    const db = this.connection.db as mongo.Db;
    const reply = await db.command({ count: INDEX_COLLECTION, query: filterOf(match) });
    return Number(reply.n);
  }

  /**
   * Up to `limit` listed products (all currencies), in name order, having for each word one of its `prefixKeys`
   * (`prefixKeysFor`): the first word's keys are points of `search_name`, the others are checked on the entries found.
   */
  prefixed(prefixKeys: string[][], limit: number): Promise<StorefrontEntry[]> {
    const eachWord = prefixKeys.map((keys) => ({ searchKeys: { $in: keys } }));
    return this.entries()
      .find({ scope: ALL_CURRENCIES, listed: true, $and: eachWord } as Doc, {
        projection: { product: 1, name: 1, slug: 1, translations: 1, terms: 1 },
      })
      .sort({ name: 1, _id: 1 })
      .limit(limit)
      .toArray() as Promise<unknown[]> as Promise<StorefrontEntry[]>;
  }

  private entries(): mongo.Collection<Doc> {
    return this.connection.collection(INDEX_COLLECTION);
  }
}

function filterOf({ scope, keys, excluded, categories }: SearchMatch): Doc {
  const inCategories = categories.length > 0 ? { categories: { $in: categories } } : {};
  const notExcluded = excluded ? { $nor: [{ searchKeys: { $in: excluded } }] } : {};
  return { scope, listed: true, searchKeys: { $in: keys }, ...notExcluded, ...inCategories };
}

import { BadRequestException, NotFoundException } from '@nestjs/common';
import { PipelineStage } from 'mongoose';
import { Bean, Exposed, JsonText, MapOf } from '../../bean';
import { toObjectId } from '../../common/mongo/object-id';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { AttributeType } from '../catalogue/attribute-type';
import { OfferFacets } from '../catalogue/offer-facets';
import { ATTRIBUTES_REVISION } from '../catalogue/attribute-revision';
import { ALL_CURRENCIES, facetKey, LISTED_FACET, StorefrontEntry } from '../catalogue/storefront-entry';
import {
  FACET_COLLECTION,
  INDEX_COLLECTION,
  LISTING_REVISION,
  REVISION_COLLECTION,
} from '../catalogue/storefront-indexer';
import { CARDLESS_LISTING_FIELDS, PageQuery, StorefrontReader } from '../catalogue/storefront-reader';
import { StorefrontSearchReader } from '../catalogue/storefront-search-reader';
import { prefixKeysFor } from '../catalogue/search-terms';
import { SellerDirectory } from '../catalogue/seller-directory';
import { CountryDirectory } from '../geolocation/country-directory';
import { toFacets } from './facet-labels';
import { Facet, FacetCount, offersOfSeller } from './facet-pipelines';
import { FacetAttributes } from './facet-attributes';
import { FacetScope } from './facet-scope';
import { ProductListingQueryDto } from './product-listing.dto';
import { Dependencies, StorefrontCache } from './storefront-cache';
import { StorefrontFacets } from './storefront-facets';
import { StorefrontSearch } from './storefront-search';
import {
  AttributeCondition,
  conditionCounter,
  entryFilter,
  INDEX_SORTS,
  KEY_PRICE_INDEX,
  keyPriceFilter,
  listingRead,
  ListingCriteria,
  ListingRead,
  ListingRow,
  pricePoints,
  queryWords,
  relevance,
  rowsOf,
  sortRows,
  totalFilters,
  TotalPart,
} from './storefront-listing';
import {
  contentIn,
  listedProductText,
  listingText,
  ProductDetail,
  ProductListing,
  toListedProduct,
  toProductDetail,
} from './storefront-views';

const MAX_SEARCH_TERM = 200;
const SUGGESTIONS = 10;
/** Candidates read for the suggestions, in name order, before the best ten are picked. */
const SUGGEST_CANDIDATES = 50;

/** A type-ahead suggestion: a product to go to. */
export interface Suggestion {
  id: string;
  name: string;
  slug: string | null;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A listing's page and its total. */
interface ListingPage {
  items: ListingRow[];
  total: number;
}

/**
 * Storefront filters (`{value, label, count}`), listings and details, answered from the storefront index that every
 * catalogue write keeps current (see the catalogue README, "Storefront index"). `skuId` narrows a filter to the
 * offers of one SKU (blank: the whole catalogue); `count` is the number of distinct products with the value, except
 * in product lists, where it is the number of in-stock offers. Each answer is a few index reads; only the attributes
 * naming the attribute filters are kept in memory, checked on each call against a revision read with the counters.
 * Every call but the seller's own filter is answered through the result cache (`StorefrontCache`): a kept answer
 * while what it was computed from is unchanged, recorded per call (`filterDependencies`, `listProducts`,
 * `getProductDetail`).
 */
@Bean('ecomRemainsSearchEngineServiceImpl', Role.GUEST)
export class ProductSearchService {
  constructor(
    private readonly offers: OfferFacets,
    private readonly index: StorefrontReader,
    private readonly facets: StorefrontFacets,
    private readonly sellers: SellerDirectory,
    private readonly scope: FacetScope,
    private readonly countries: CountryDirectory,
    private readonly search: StorefrontSearch,
    private readonly searchIndex: StorefrontSearchReader,
    private readonly attributes: FacetAttributes,
    private readonly cache: StorefrontCache,
  ) {}

  /**
   * The logged-in seller's own offers (also those out of stock or unpublished): value = seller SKU id,
   * count = quantity in stock. A GUEST, or a user who is no seller, has none: an empty list, not an error.
   * One seller's offers are found through the `seller` index.
   */
  @Exposed()
  async getLoggedSellerSkusFilter(): Promise<Facet[]> {
    const principal = RequestContext.principal();
    const sellerId = principal && (await this.sellers.idActingFor(principal.id));
    if (!sellerId) return [];
    return toFacets(await this.run(offersOfSeller(sellerId)));
  }

  /** Labels are country names in the request language. */
  @Exposed(['String'])
  getCountriesOfOriginFilter(skuId: string): Promise<Facet[]> {
    return this.filter('origin', [skuId], async () =>
      toFacets(await this.facets.counts('origin', skuId), (code) => this.countryName(code)),
    );
  }

  @Exposed(['String'])
  getCountriesOfSellersFilter(skuId: string): Promise<Facet[]> {
    return this.filter('seller', [skuId], async () =>
      toFacets(await this.facets.counts('seller', skuId), (code) => this.countryName(code)),
    );
  }

  @Exposed(['String'])
  getGeneticTypeFilter(skuId: string): Promise<Facet[]> {
    return this.filter('genetic', [skuId], async () => toFacets(await this.facets.counts('genetic', skuId)));
  }

  /**
   * The attributes of type `filterType` (OPTION or VALUE) that in-scope products have: value = attribute id. The
   * counts and the attributes of the type are read at once (one wait for the database instead of two in turn).
   */
  @Exposed(['String', 'String'])
  getDynamicFilters(skuId: string, filterType: string): Promise<Facet[]> {
    return this.filter('dynamic', [skuId, filterType], () => this.dynamicFilters(skuId, filterType));
  }

  private async dynamicFilters(skuId: string, filterType: string): Promise<Facet[]> {
    const type = this.scope.filterType(filterType);
    const { counts, attributes } = await this.facets.withAttributes('attribute', skuId, type);
    const labelled = counts.flatMap((row) => {
      const attribute = attributes.get(String(row._id));
      return attribute ? [{ ...row, label: attribute.name }] : [];
    });
    return toFacets(labelled);
  }

  @Exposed(['String', 'String'])
  getDynamicOptionFilters(skuId: string, attributeId: string): Promise<Facet[]> {
    return this.filter('option', [skuId, attributeId], () =>
      this.attributeFacets(skuId, attributeId, AttributeType.OPTION),
    );
  }

  @Exposed(['String', 'String'])
  getDynamicValueFilters(skuId: string, attributeId: string): Promise<Facet[]> {
    return this.filter('value', [skuId, attributeId], () =>
      this.attributeFacets(skuId, attributeId, AttributeType.VALUE),
    );
  }

  /**
   * Products with an in-stock offer: value = product id, count = its in-stock offers; only the first
   * `MAX_LISTED_PRODUCTS` (50) by name, a storefront narrowing the list by a search term.
   */
  @Exposed()
  getProductsListFilter(): Promise<Facet[]> {
    return this.filter('products', [''], async () => toFacets(await this.facets.productsNamed('')));
  }

  /** Like `getProductsListFilter`, for names containing `searchTerm` as literal text, ignoring case. */
  @Exposed(['String'])
  async getProductsListByRequestFilter(searchTerm: string): Promise<Facet[]> {
    if (searchTerm.length > MAX_SEARCH_TERM) {
      throw new BadRequestException(`searchTerm must be at most ${MAX_SEARCH_TERM} characters`);
    }
    const term = searchTerm.trim();
    return this.filter('products', [term], async () => toFacets(await this.facets.productsNamed(term)));
  }

  /**
   * Type-ahead: up to 10 listed products having, for each word of `prefix`, a word starting with it (in any language;
   * no typo tolerance: a prefix is still being typed), best matches first (the search's relevance, then by name),
   * each with its name in the request language and its slug. Blank: none. 400 over 200 characters.
   */
  @Exposed(['String'])
  async suggest(prefix: string): Promise<Suggestion[]> {
    if (prefix.length > MAX_SEARCH_TERM) {
      throw new BadRequestException(`prefix must be at most ${MAX_SEARCH_TERM} characters`);
    }
    return this.filter('suggest', [prefix], () => this.suggestions(prefix));
  }

  private async suggestions(prefix: string): Promise<Suggestion[]> {
    const words = queryWords(prefix);
    if (words.length === 0) return [];
    const candidates = await this.searchIndex.prefixed(words.map(prefixKeysFor), SUGGEST_CANDIDATES);
    const lang = this.lang();
    return candidates
      .map((entry) => ({ entry, score: relevance(entry, words) }))
      .sort((x, y) => y.score - x.score || compareText(x.entry.name, y.entry.name))
      .slice(0, SUGGESTIONS)
      .map(({ entry }) => ({ id: String(entry.product), name: contentIn(entry, lang).name, slug: entry.slug }));
  }

  /**
   * A page of published products with an active in-stock offer, each with its cheapest such offer (within the
   * price range, currency and attribute filters), and the number of such products (`total`). See the README.
   */
  @Exposed([MapOf(ProductListingQueryDto)])
  listProducts(query: ProductListingQueryDto): Promise<JsonText<ProductListing>> {
    return this.cached('listProducts', [query], (dependencies) => this.listing(query, dependencies));
  }

  /**
   * A listing depends on the listing revision (which every change to what orders, counts or matches entries writes),
   * its attribute conditions on the attributes' revision, and its page on the entries it shows (their offers'
   * quantities): another product's stock change leaves it as it was. The answer is JSON text composed from the
   * entries' cards (`listedProductText`), kept as such by the cache and written as such by the transports.
   */
  private async listing(query: ProductListingQueryDto, dependencies: Dependencies): Promise<JsonText<ProductListing>> {
    dependencies.document(REVISION_COLLECTION, LISTING_REVISION);
    if (query.filters?.length) dependencies.document(FACET_COLLECTION, ATTRIBUTES_REVISION);
    const criteria = { ...listingCriteria(query), conditions: attributeConditions(query) };
    const { items, total } = await this.listingRows(criteria);
    dependencies.shown(items.map((row) => row.entry._id));
    return listingText(await this.rowTexts(items), criteria.page, criteria.size, total);
  }

  /**
   * The rows' JSON from their entries' cards; entries written before cards (a store not reindexed since) are read
   * again with the fields a row shows and stringified as before.
   */
  private async rowTexts(rows: ListingRow[]): Promise<string[]> {
    const lang = this.lang();
    const texts = rows.map((row) => listedProductText(row.entry, row.offer, lang));
    const cardless = rows.filter((_row, at) => texts[at] === undefined).map((row) => row.entry._id);
    if (cardless.length === 0) return texts as string[];
    const entries = new Map(
      (await this.index.byIds(cardless, CARDLESS_LISTING_FIELDS)).map((entry) => [entry._id, entry]),
    );
    return rows.flatMap((row, at) => {
      const entry = entries.get(row.entry._id);
      if (texts[at] !== undefined) return [texts[at]];
      return entry ? [JSON.stringify(toListedProduct(entry, row.offer, lang))] : [];
    });
  }

  /** A published product with its SKUs and every active offer, cheapest first; 400 malformed id, 404 unknown. */
  @Exposed(['String'])
  getProductDetail(productId: string): Promise<ProductDetail> {
    return this.cached('getProductDetail', [productId], async (dependencies) => {
      const id = toObjectId(productId, 'productId');
      dependencies.document(INDEX_COLLECTION, String(id));
      const entry = await this.index.entry(id);
      if (!entry?.published) throw new NotFoundException(`Product ${productId} not found`);
      return toProductDetail(entry, this.lang());
    });
  }

  /** A call's answer through the result cache, in the request's language. */
  private cached<T>(call: string, args: unknown[], compute: (dependencies: Dependencies) => Promise<T>): Promise<T> {
    return this.cache.answer(call, args, this.lang(), compute);
  }

  /**
   * A filter's (or the suggestions') answer through the result cache: it depends on the counters (any of them, and
   * the attributes' revision kept with them) and on the listing revision (the entries it reads, narrowed to a SKU or
   * by name, change only with it).
   */
  private filter<T>(call: string, args: unknown[], compute: () => Promise<T>): Promise<T> {
    return this.cached(call, args, (dependencies) => {
      dependencies.collection(FACET_COLLECTION);
      dependencies.document(REVISION_COLLECTION, LISTING_REVISION);
      return compute();
    });
  }

  /**
   * The page and total of a listing (see `listingRead`). Read in an index's order: a range read of one page (each
   * entry with its cheapest in-stock offer, or its offers to pick from) and the total: a kept counter read in the
   * same command when there is one (`totalCounter`), else counts (`indexedTotal`); otherwise every candidate the
   * index finds is checked (its cheapest offer meeting the conditions, its relevance), ordered and sliced here, and
   * the page's entries are read in full.
   */
  private async listingRows(criteria: ListingCriteria): Promise<ListingPage> {
    const words = queryWords(criteria.q);
    const scope = criteria.currency ?? ALL_CURRENCIES;
    const sort = criteria.sort ?? (words.length > 0 ? 'relevance' : 'name');
    const read = listingRead(criteria, words, sort);
    const counter = read === 'candidates' ? undefined : totalCounter(read, criteria, scope);
    // With a counter, the attributes are checked against the revision read with it (below); else first.
    if (counter === undefined) await this.checkAttributes(criteria.conditions, undefined);
    const points = await pricePoints(criteria, scope, () => this.index.keepsPriceKeys(scope));
    const filter = entryFilter(criteria, words, points);
    const start = criteria.page * criteria.size;
    // Text with no word in it (only punctuation) matches nothing, as it did through the text index.
    if (criteria.q && words.length === 0) return { items: [], total: 0 };
    if (StorefrontSearch.answers(criteria, words)) return this.search.page(criteria, words, sort);
    if (read !== 'candidates' && sort !== 'relevance') {
      const paging = { skip: start, limit: criteria.size, allOffers: read !== 'cheapest' };
      const query: PageQuery =
        read === 'keyPrice'
          ? {
              filter: keyPriceFilter(criteria, sort === 'price' ? 'price' : '-price'),
              hint: KEY_PRICE_INDEX,
              ...paging,
            }
          : { filter, sort: INDEX_SORTS[sort], ...paging };
      const { entries, total } =
        counter === undefined
          ? await this.pageAndCounts(scope, query, totalFilters(criteria, filter, points))
          : await this.countedPage(scope, query, counter, criteria.conditions);
      return { items: read === 'cheapest' ? cheapestRows(entries) : rowsOf(entries, criteria, []), total };
    }
    const rows = rowsOf(await this.index.candidates(scope, filter, words.length > 0), criteria, words);
    const page = sortRows(rows, sort).slice(start, start + criteria.size);
    const full = new Map((await this.index.byIds(page.map((row) => row.entry._id))).map((entry) => [entry._id, entry]));
    const items = page.flatMap((row) => {
      const entry = full.get(row.entry._id);
      return entry ? [{ ...row, entry }] : [];
    });
    return { items, total: rows.length };
  }

  /** A page and the kept counter that is its total, in one command; the conditions' attributes checked with it. */
  private async countedPage(scope: string, query: PageQuery, counter: string, conditions: AttributeCondition[]) {
    const { entries, count, revision } = await this.index.countedPage(scope, query, counter);
    await this.checkAttributes(conditions, revision);
    return { entries, total: count };
  }

  /** A page and its total (`totalFilters`' counts): read with the page (`pageWithTotal`), a hinted count apart. */
  private async pageAndCounts(scope: string, query: PageQuery, parts: TotalPart[]) {
    const withPage = parts.filter(({ hint }) => hint === undefined).map(({ filter }) => filter);
    const [{ entries, total }, ...apart] = await Promise.all([
      this.index.pageWithTotal(scope, query, withPage),
      ...parts
        .filter(({ hint }) => hint !== undefined)
        .map(({ filter, hint }) => this.index.count(scope, filter, hint)),
    ]);
    return { entries, total: apart.reduce((sum, count) => sum + count, total) };
  }

  /**
   * Each condition's attribute must exist (404), as for the attribute facets: one of those kept as of the attributes'
   * `revision` (read with the total), else read.
   */
  private async checkAttributes(conditions: AttributeCondition[], revision: string | undefined): Promise<void> {
    await Promise.all(
      conditions.map(async ({ attribute }) => {
        if (!(await this.attributes.known(String(attribute), revision))) await this.scope.attribute(String(attribute));
      }),
    );
  }

  /**
   * An attribute's value counts, labelled with its unit. Over the whole catalogue the attribute comes with the counts
   * (`withAttributes`; one not among those of its type, unknown or of the other type, is read for its 404 or 400).
   * Narrowed to a SKU, the attribute and the counts are read at once, the attribute's errors (400, 404) still before
   * the SKU's, as when they were read one after the other.
   */
  private async attributeFacets(skuId: string, attributeId: string, type: AttributeType): Promise<Facet[]> {
    const id = String(toObjectId(attributeId, 'attributeId'));
    const { attribute, counts } = this.scope.skuId(skuId)
      ? await this.skuScopedAttributeCounts(attributeId, id, skuId, type)
      : await this.catalogueAttributeCounts(attributeId, id, type);
    const suffix = attribute.unit ? ` ${attribute.unit}` : '';
    return toFacets(counts, (value) => `${value}${suffix}`);
  }

  /** `id`: `attributeId` checked and normalized. */
  private async catalogueAttributeCounts(attributeId: string, id: string, type: AttributeType) {
    const { counts, attributes } = await this.facets.withAttributes(`value:${id}`, '', type);
    return { counts, attribute: attributes.get(id) ?? (await this.scope.attribute(attributeId, type)) };
  }

  private async skuScopedAttributeCounts(attributeId: string, id: string, skuId: string, type: AttributeType) {
    const [attribute, counts] = await Promise.allSettled([
      this.scope.attribute(attributeId, type),
      this.facets.counts(`value:${id}`, skuId),
    ]);
    if (attribute.status === 'rejected') throw attribute.reason;
    if (counts.status === 'rejected') throw counts.reason;
    return { attribute: attribute.value, counts: counts.value };
  }

  private run(pipeline: PipelineStage[]): Promise<FacetCount[]> {
    return this.offers.aggregate<FacetCount>(pipeline);
  }

  private lang(): string {
    return RequestContext.current().lang;
  }

  private countryName(code: string): string {
    return this.countries.isKnown(code) ? this.countries.get(code).name : code;
  }
}

/**
 * The kept counter that is an index-ordered listing's total, if one is: the scope's listed products without
 * conditions or categories, or one attribute value's (`conditionCounter`).
 */
function totalCounter(read: ListingRead, criteria: ListingCriteria, scope: string): string | undefined {
  if (read === 'cheapest') return criteria.categories.length === 0 ? facetKey(LISTED_FACET, scope) : undefined;
  return conditionCounter(criteria, scope);
}

/** Rows of entries read with their cheapest in-stock offer (entries computed before they kept it need a reindex). */
function cheapestRows(entries: StorefrontEntry[]): ListingRow[] {
  return entries.flatMap((entry) => (entry.cheapest ? [{ entry, offer: entry.cheapest, score: 0 }] : []));
}

/** The attribute filters with their ids parsed (400 malformed); that the attributes exist is checked apart. */
function attributeConditions(query: ProductListingQueryDto): AttributeCondition[] {
  return (query.filters ?? []).map((filter) => ({
    attribute: toObjectId(filter.attributeId, 'attributeId'),
    values: filter.values,
  }));
}

/** The listing query checked beyond its fields (the DTO checked each), without the attribute conditions. */
function listingCriteria(query: ProductListingQueryDto): Omit<ListingCriteria, 'conditions'> {
  if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
    throw new BadRequestException('minPrice must not be above maxPrice');
  }
  const q = query.q?.trim();
  return {
    q: q || undefined,
    categories: query.categories ?? [],
    minPrice: query.minPrice,
    maxPrice: query.maxPrice,
    currency: query.currency,
    sort: query.sort,
    page: query.page,
    size: query.size,
  };
}

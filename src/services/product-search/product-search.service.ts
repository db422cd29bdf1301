import { BadRequestException, NotFoundException } from '@nestjs/common';
import { PipelineStage } from 'mongoose';
import { Bean, Exposed, MapOf } from '../../bean';
import { toObjectId } from '../../common/mongo/object-id';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { AttributeType } from '../catalogue/attribute-type';
import { OfferFacets } from '../catalogue/offer-facets';
import { ALL_CURRENCIES, StorefrontEntry } from '../catalogue/storefront-entry';
import { StorefrontReader } from '../catalogue/storefront-reader';
import { StorefrontSearchReader } from '../catalogue/storefront-search-reader';
import { prefixKeysFor } from '../catalogue/search-terms';
import { SellerDirectory } from '../catalogue/seller-directory';
import { CountryDirectory } from '../geolocation/country-directory';
import { toFacets } from './facet-labels';
import { Facet, FacetCount, offersOfSeller } from './facet-pipelines';
import { FacetScope } from './facet-scope';
import { ProductListingQueryDto } from './product-listing.dto';
import { StorefrontFacets } from './storefront-facets';
import { StorefrontSearch } from './storefront-search';
import {
  AttributeCondition,
  conditionCounter,
  entryFilter,
  INDEX_SORTS,
  keyPriceFilter,
  listingRead,
  ListingCriteria,
  ListingRead,
  ListingRow,
  queryWords,
  relevance,
  rowsOf,
  sortRows,
  totalFilters,
} from './storefront-listing';
import { contentIn, ProductDetail, ProductListing, toListedProduct, toProductDetail } from './storefront-views';

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
  async getCountriesOfOriginFilter(skuId: string): Promise<Facet[]> {
    return toFacets(await this.facets.counts('origin', skuId), (code) => this.countryName(code));
  }

  @Exposed(['String'])
  async getCountriesOfSellersFilter(skuId: string): Promise<Facet[]> {
    return toFacets(await this.facets.counts('seller', skuId), (code) => this.countryName(code));
  }

  @Exposed(['String'])
  async getGeneticTypeFilter(skuId: string): Promise<Facet[]> {
    return toFacets(await this.facets.counts('genetic', skuId));
  }

  /**
   * The attributes of type `filterType` (OPTION or VALUE) that in-scope products have: value = attribute id. The
   * counts and the attributes of the type are read at once (one wait for the database instead of two in turn).
   */
  @Exposed(['String', 'String'])
  async getDynamicFilters(skuId: string, filterType: string): Promise<Facet[]> {
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
    return this.attributeFacets(skuId, attributeId, AttributeType.OPTION);
  }

  @Exposed(['String', 'String'])
  getDynamicValueFilters(skuId: string, attributeId: string): Promise<Facet[]> {
    return this.attributeFacets(skuId, attributeId, AttributeType.VALUE);
  }

  /**
   * Products with an in-stock offer: value = product id, count = its in-stock offers; only the first
   * `MAX_LISTED_PRODUCTS` (50) by name, a storefront narrowing the list by a search term.
   */
  @Exposed()
  async getProductsListFilter(): Promise<Facet[]> {
    return toFacets(await this.facets.productsNamed(''));
  }

  /** Like `getProductsListFilter`, for names containing `searchTerm` as literal text, ignoring case. */
  @Exposed(['String'])
  async getProductsListByRequestFilter(searchTerm: string): Promise<Facet[]> {
    if (searchTerm.length > MAX_SEARCH_TERM) {
      throw new BadRequestException(`searchTerm must be at most ${MAX_SEARCH_TERM} characters`);
    }
    return toFacets(await this.facets.productsNamed(searchTerm.trim()));
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
  async listProducts(query: ProductListingQueryDto): Promise<ProductListing> {
    const criteria = { ...listingCriteria(query), conditions: await this.attributeConditions(query) };
    const { items, total } = await this.listingRows(criteria);
    const lang = this.lang();
    const listed = items.map((row) => toListedProduct(row.entry, row.offer, lang));
    return { items: listed, page: criteria.page, size: criteria.size, total };
  }

  /** A published product with its SKUs and every active offer, cheapest first; 400 malformed id, 404 unknown. */
  @Exposed(['String'])
  async getProductDetail(productId: string): Promise<ProductDetail> {
    const entry = await this.index.entry(toObjectId(productId, 'productId'));
    if (!entry?.published) throw new NotFoundException(`Product ${productId} not found`);
    return toProductDetail(entry, this.lang());
  }

  /**
   * The page and total of a listing (see `listingRead`). Read in an index's order: a range read of one page (each
   * entry with its cheapest in-stock offer, or its offers to pick from) and the total (see `indexedTotal`);
   * otherwise every candidate the index finds is checked (its cheapest offer meeting the conditions, its
   * relevance), ordered and sliced here, and the page's entries are read in full.
   */
  private async listingRows(criteria: ListingCriteria): Promise<ListingPage> {
    const words = queryWords(criteria.q);
    const scope = criteria.currency ?? ALL_CURRENCIES;
    const filter = entryFilter(criteria, words);
    const sort = criteria.sort ?? (words.length > 0 ? 'relevance' : 'name');
    const start = criteria.page * criteria.size;
    // Text with no word in it (only punctuation) matches nothing, as it did through the text index.
    if (criteria.q && words.length === 0) return { items: [], total: 0 };
    if (StorefrontSearch.answers(criteria, words)) return this.search.page(criteria, words, sort);
    const read = listingRead(criteria, words, sort);
    if (read !== 'candidates' && sort !== 'relevance') {
      const paging = { skip: start, limit: criteria.size };
      const [entries, total] = await Promise.all([
        read === 'keyPrice'
          ? this.index.keyPricePage(scope, keyPriceFilter(criteria, sort === 'price' ? 'price' : '-price'), paging)
          : this.index.page(scope, filter, INDEX_SORTS[sort], { ...paging, allOffers: read === 'exact' }),
        this.indexedTotal(read, criteria, scope, filter),
      ]);
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

  /**
   * The total of an index-ordered listing: a kept counter without conditions (the scope's listed products) or with
   * one attribute value alone; otherwise counts in the database, a price range's in two parts (`totalFilters`).
   */
  private async indexedTotal(
    read: ListingRead,
    criteria: ListingCriteria,
    scope: string,
    filter: Record<string, unknown>,
  ): Promise<number> {
    if (read === 'cheapest' && criteria.categories.length === 0) return this.index.listedCount(scope);
    const counter = conditionCounter(criteria, scope);
    if (counter !== undefined) return this.index.counted(counter);
    const counts = await Promise.all(totalFilters(criteria, filter).map((part) => this.index.count(scope, part)));
    return counts.reduce((sum, count) => sum + count, 0);
  }

  /** Each filter's attribute must exist (404), as for the attribute facets. */
  private async attributeConditions(query: ProductListingQueryDto): Promise<AttributeCondition[]> {
    const filters = query.filters ?? [];
    const attributes = await Promise.all(filters.map((filter) => this.scope.attribute(filter.attributeId)));
    return attributes.map((attribute, index) => ({ attribute: attribute._id, values: filters[index].values }));
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

/** Rows of entries read with their cheapest in-stock offer (entries computed before they kept it need a reindex). */
function cheapestRows(entries: StorefrontEntry[]): ListingRow[] {
  return entries.flatMap((entry) => (entry.cheapest ? [{ entry, offer: entry.cheapest, score: 0 }] : []));
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

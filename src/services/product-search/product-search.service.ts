import { BadRequestException, NotFoundException } from '@nestjs/common';
import { PipelineStage } from 'mongoose';
import { Bean, Exposed, MapOf } from '../../bean';
import { toObjectId } from '../../common/mongo/object-id';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { AttributeType } from '../catalogue/attribute-type';
import { OfferFacets } from '../catalogue/offer-facets';
import { SellerDirectory } from '../catalogue/seller-directory';
import { countryLanguage } from '../geolocation/country-dataset';
import { CountryDirectory } from '../geolocation/country-directory.service';
import { FacetCache } from './facet-cache';
import { toFacets } from './facet-labels';
import {
  attributesOfType,
  countProductsBy,
  Facet,
  FacetCount,
  offersOfSeller,
  productsInStock,
  productsMatching,
  sellerCountries,
  valuesOfAttribute,
} from './facet-pipelines';
import { FacetScope } from './facet-scope.service';
import { ProductListingQueryDto } from './product-listing.dto';
import {
  AttributeCondition,
  DetailRow,
  detailPipeline,
  ListingCriteria,
  listingPipeline,
  ListingResult,
} from './storefront-pipelines';
import { ProductDetail, ProductListing, toListedProduct, toProductDetail } from './storefront-views';

const MAX_SEARCH_TERM = 200;

/**
 * Storefront filters (`{value, label, count}`) aggregated over in-stock offers of published products. `skuId`
 * narrows a filter to the offers of one SKU (blank: the whole catalogue); `count` is the number of distinct
 * products with the value, except in product lists, where it is the number of in-stock offers.
 * Results are cached per catalogue revision (`FacetCache`), except the logged-in seller's own offers.
 */
@Bean('ecomRemainsSearchEngineServiceImpl', Role.GUEST)
export class ProductSearchService {
  constructor(
    private readonly offers: OfferFacets,
    private readonly sellers: SellerDirectory,
    private readonly scope: FacetScope,
    private readonly countries: CountryDirectory,
    private readonly cache: FacetCache,
  ) {}

  /**
   * The logged-in seller's own offers (also those out of stock or unpublished): value = seller SKU id,
   * count = quantity in stock. A GUEST, or a user who is no seller, has none: an empty list, not an error.
   * Not cached: it depends on the caller, and one seller's offers are found through the `seller` index.
   */
  @Exposed()
  async getLoggedSellerSkusFilter(): Promise<Facet[]> {
    const principal = RequestContext.principal();
    const sellerId = principal && (await this.sellers.idActingFor(principal.id));
    if (!sellerId) return [];
    return toFacets(await this.run(offersOfSeller(sellerId)));
  }

  /** Labels are country names in the request language, which is part of the cache key. */
  @Exposed(['String'])
  getCountriesOfOriginFilter(skuId: string): Promise<Facet[]> {
    return this.cache.get(['getCountriesOfOriginFilter', skuId, this.labelLanguage()], async () => {
      const counts = await this.inScope(skuId, [], countProductsBy('product.countryOfOrigin'));
      return toFacets(counts, (code) => this.countryName(code));
    });
  }

  @Exposed(['String'])
  getCountriesOfSellersFilter(skuId: string): Promise<Facet[]> {
    return this.cache.get(['getCountriesOfSellersFilter', skuId, this.labelLanguage()], async () => {
      const counts = await this.inScope(skuId, ['sellers'], [...sellerCountries(), ...countProductsBy('countries')]);
      return toFacets(counts, (code) => this.countryName(code));
    });
  }

  @Exposed(['String'])
  getGeneticTypeFilter(skuId: string): Promise<Facet[]> {
    return this.cache.get(['getGeneticTypeFilter', skuId], async () =>
      toFacets(await this.inScope(skuId, [], countProductsBy('product.geneticType'))),
    );
  }

  /** The attributes of type `filterType` (OPTION or VALUE) that in-scope products have: value = attribute id. */
  @Exposed(['String', 'String'])
  getDynamicFilters(skuId: string, filterType: string): Promise<Facet[]> {
    return this.cache.get(['getDynamicFilters', skuId, filterType], async () => {
      const type = this.scope.filterType(filterType);
      return toFacets(await this.inScope(skuId, ['skus'], attributesOfType(type)));
    });
  }

  @Exposed(['String', 'String'])
  getDynamicOptionFilters(skuId: string, attributeId: string): Promise<Facet[]> {
    const compute = () => this.attributeFacets(skuId, attributeId, AttributeType.OPTION);
    return this.cache.get(['getDynamicOptionFilters', skuId, attributeId], compute);
  }

  @Exposed(['String', 'String'])
  getDynamicValueFilters(skuId: string, attributeId: string): Promise<Facet[]> {
    const compute = () => this.attributeFacets(skuId, attributeId, AttributeType.VALUE);
    return this.cache.get(['getDynamicValueFilters', skuId, attributeId], compute);
  }

  /** Every product with an in-stock offer: value = product id, count = its in-stock offers. */
  @Exposed()
  getProductsListFilter(): Promise<Facet[]> {
    return this.cache.get(['getProductsListFilter'], async () => toFacets(await this.run(productsMatching())));
  }

  /** Like `getProductsListFilter`, for names containing `searchTerm` as literal text, ignoring case. */
  @Exposed(['String'])
  async getProductsListByRequestFilter(searchTerm: string): Promise<Facet[]> {
    if (searchTerm.length > MAX_SEARCH_TERM) {
      throw new BadRequestException(`searchTerm must be at most ${MAX_SEARCH_TERM} characters`);
    }
    const compute = async () => toFacets(await this.run(productsMatching(searchTerm)));
    return this.cache.get(['getProductsListByRequestFilter', searchTerm], compute);
  }

  /**
   * A page of published products with an active in-stock offer, each with its cheapest such offer (within the
   * price range, currency and attribute filters), and the number of such products (`total`). See the README.
   */
  @Exposed([MapOf(ProductListingQueryDto)])
  listProducts(query: ProductListingQueryDto): Promise<ProductListing> {
    const criteria = listingCriteria(query);
    const filters = query.filters?.map(({ attributeId, values }) => [attributeId, values]);
    return this.cache.get(['listProducts', criteria, filters], async () => {
      const conditions = await this.attributeConditions(query);
      const [result] = await this.offers.aggregateProducts<ListingResult>(listingPipeline({ ...criteria, conditions }));
      const { page, size } = criteria;
      return { items: result.items.map(toListedProduct), page, size, total: result.total[0]?.n ?? 0 };
    });
  }

  /** A published product with its SKUs and every active offer, cheapest first; 400 malformed id, 404 unknown. */
  @Exposed(['String'])
  getProductDetail(productId: string): Promise<ProductDetail> {
    const id = toObjectId(productId, 'productId');
    return this.cache.get(['getProductDetail', productId], async () => {
      const [row] = await this.offers.aggregateProducts<DetailRow>(detailPipeline(id));
      if (!row) throw new NotFoundException(`Product ${productId} not found`);
      return toProductDetail(row);
    });
  }

  /** Each filter's attribute must exist (404), as for the attribute facets. */
  private async attributeConditions(query: ProductListingQueryDto): Promise<AttributeCondition[]> {
    const filters = query.filters ?? [];
    const attributes = await Promise.all(filters.map((filter) => this.scope.attribute(filter.attributeId)));
    return attributes.map((attribute, index) => ({ attribute: attribute._id, values: filters[index].values }));
  }

  private async attributeFacets(skuId: string, attributeId: string, type: AttributeType): Promise<Facet[]> {
    const attribute = await this.scope.attribute(attributeId, type);
    const suffix = attribute.unit ? ` ${attribute.unit}` : '';
    const counts = await this.inScope(skuId, ['skus'], valuesOfAttribute(attribute._id));
    return toFacets(counts, (value) => `${value}${suffix}`);
  }

  /**
   * Runs `facet` over the published products with in-stock offers (of `skuId` unless blank). The SKU is looked up
   * only when nothing matched, to tell an unknown SKU (404) from one without stock: one aggregate per call.
   */
  private async inScope(skuId: string, collect: Parameters<typeof productsInStock>[1], facet: PipelineStage[]) {
    const sku = this.scope.skuId(skuId);
    const counts = await this.run([...productsInStock(sku, collect), ...facet]);
    if (counts.length === 0 && sku) await this.scope.assertSkuExists(sku, skuId);
    return counts;
  }

  private run(pipeline: PipelineStage[]): Promise<FacetCount[]> {
    return this.offers.aggregate<FacetCount>(pipeline);
  }

  private labelLanguage(): string {
    return countryLanguage(RequestContext.current().lang);
  }

  private countryName(code: string): string {
    return this.countries.isKnown(code) ? this.countries.get(code).name : code;
  }
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

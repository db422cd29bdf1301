import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, PipelineStage } from 'mongoose';
import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { AttributeType } from '../catalogue/attribute.schema';
import { SellerSku } from '../catalogue/seller-sku.schema';
import { Seller } from '../catalogue/seller.schema';
import { CountryDirectory } from '../geolocation/country-directory.service';
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

const MAX_SEARCH_TERM = 200;

/**
 * Storefront filters (`{value, label, count}`) aggregated over in-stock offers of published products. `skuId`
 * narrows a filter to the offers of one SKU (blank: the whole catalogue); `count` is the number of distinct
 * products with the value, except in product lists, where it is the number of in-stock offers.
 */
@Injectable()
@Bean('ecomRemainsSearchEngineServiceImpl', Role.GUEST)
export class ProductSearchService {
  constructor(
    @InjectModel(SellerSku.name) private readonly offers: Model<SellerSku>,
    @InjectModel(Seller.name) private readonly sellers: Model<Seller>,
    private readonly scope: FacetScope,
    private readonly countries: CountryDirectory,
  ) {}

  /**
   * The logged-in seller's own offers (also those out of stock or unpublished): value = seller SKU id,
   * count = quantity in stock. A GUEST, or a user who is no seller, has none: an empty list, not an error.
   */
  @Exposed()
  async getLoggedSellerSkusFilter(): Promise<Facet[]> {
    const principal = RequestContext.principal();
    const seller = principal && (await this.sellers.findOne({ userId: principal.id }, { _id: 1 }).lean());
    if (!seller) return [];
    return toFacets(await this.run(offersOfSeller(seller._id)));
  }

  @Exposed(['String'])
  async getCountriesOfOriginFilter(skuId: string): Promise<Facet[]> {
    const counts = await this.inScope(skuId, [], countProductsBy('product.countryOfOrigin'));
    return toFacets(counts, (code) => this.countryName(code));
  }

  @Exposed(['String'])
  async getCountriesOfSellersFilter(skuId: string): Promise<Facet[]> {
    const counts = await this.inScope(skuId, ['sellers'], [...sellerCountries(), ...countProductsBy('countries')]);
    return toFacets(counts, (code) => this.countryName(code));
  }

  @Exposed(['String'])
  async getGeneticTypeFilter(skuId: string): Promise<Facet[]> {
    return toFacets(await this.inScope(skuId, [], countProductsBy('product.geneticType')));
  }

  /** The attributes of type `filterType` (OPTION or VALUE) that in-scope products have: value = attribute id. */
  @Exposed(['String', 'String'])
  async getDynamicFilters(skuId: string, filterType: string): Promise<Facet[]> {
    const type = this.scope.filterType(filterType);
    return toFacets(await this.inScope(skuId, ['skus'], attributesOfType(type)));
  }

  @Exposed(['String', 'String'])
  getDynamicOptionFilters(skuId: string, attributeId: string): Promise<Facet[]> {
    return this.attributeFacets(skuId, attributeId, AttributeType.OPTION);
  }

  @Exposed(['String', 'String'])
  getDynamicValueFilters(skuId: string, attributeId: string): Promise<Facet[]> {
    return this.attributeFacets(skuId, attributeId, AttributeType.VALUE);
  }

  /** Every product with an in-stock offer: value = product id, count = its in-stock offers. */
  @Exposed()
  async getProductsListFilter(): Promise<Facet[]> {
    return toFacets(await this.run(productsMatching()));
  }

  /** Like `getProductsListFilter`, for names containing `searchTerm` as literal text, ignoring case. */
  @Exposed(['String'])
  async getProductsListByRequestFilter(searchTerm: string): Promise<Facet[]> {
    if (searchTerm.length > MAX_SEARCH_TERM) {
      throw new BadRequestException(`searchTerm must be at most ${MAX_SEARCH_TERM} characters`);
    }
    return toFacets(await this.run(productsMatching(searchTerm)));
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
    return this.offers.aggregate<FacetCount>(pipeline).exec();
  }

  private countryName(code: string): string {
    return this.countries.isKnown(code) ? this.countries.get(code).name : code;
  }
}

import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../database/database.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { GeolocationModule } from '../geolocation/geolocation.module';
import { FacetAttributes } from './facet-attributes';
import { FacetScope } from './facet-scope';
import { ProductSearchService } from './product-search.service';
import { StorefrontCache } from './storefront-cache';
import { StorefrontFacets } from './storefront-facets';
import { StorefrontSearch } from './storefront-search';

@Module({
  imports: [CatalogueModule, DatabaseModule, GeolocationModule],
  providers: [FacetAttributes, FacetScope, StorefrontCache, StorefrontFacets, StorefrontSearch, ProductSearchService],
})
export class ProductSearchModule {}

import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { GeolocationModule } from '../geolocation/geolocation.module';
import { FacetAttributes } from './facet-attributes';
import { FacetScope } from './facet-scope';
import { ProductSearchService } from './product-search.service';
import { StorefrontFacets } from './storefront-facets';
import { StorefrontSearch } from './storefront-search';

@Module({
  imports: [CatalogueModule, GeolocationModule],
  providers: [FacetAttributes, FacetScope, StorefrontFacets, StorefrontSearch, ProductSearchService],
})
export class ProductSearchModule {}

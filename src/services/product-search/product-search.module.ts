import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { GeolocationModule } from '../geolocation/geolocation.module';
import { FacetScope } from './facet-scope';
import { ProductSearchService } from './product-search.service';
import { StorefrontFacets } from './storefront-facets';
import { StorefrontSearch } from './storefront-search';

@Module({
  imports: [CatalogueModule, GeolocationModule],
  providers: [FacetScope, StorefrontFacets, StorefrontSearch, ProductSearchService],
})
export class ProductSearchModule {}

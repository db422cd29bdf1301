import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { GeolocationModule } from '../geolocation/geolocation.module';
import { FacetCache } from './facet-cache';
import { FacetScope } from './facet-scope.service';
import { ProductSearchService } from './product-search.service';

@Module({
  imports: [CatalogueModule, GeolocationModule],
  providers: [FacetCache, FacetScope, ProductSearchService],
})
export class ProductSearchModule {}

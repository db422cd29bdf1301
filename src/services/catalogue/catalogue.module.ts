import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AttributeAdmin } from './attribute-admin';
import { AttributeRepository } from './attribute.repository';
import { Attribute, AttributeSchema } from './attribute.schema';
import { CatalogueAdminService } from './catalogue-admin.service';
import { CatalogueImport } from './catalogue-import';
import { CatalogueReferences } from './catalogue-references';
import { CatalogueTopic } from './catalogue-topic';
import { Category, CategorySchema } from './category.schema';
import { CategoryTree } from './category-tree';
import { OfferCatalog } from './offer-catalog';
import { OfferFacets } from './offer-facets';
import { OfferStock } from './offer-stock';
import { OfferRepository } from './offer.repository';
import { ProductAdmin } from './product-admin';
import { ProductController } from './product.controller';
import { Product, ProductSchema } from './product.schema';
import { ProductCreator } from './product-creator';
import { ProductRepository } from './product.repository';
import { SellerDirectory } from './seller-directory';
import { SellerOfferController } from './seller-offer.controller';
import { SellerOffers } from './seller-offers';
import { SellerSku, SellerSkuSchema } from './seller-sku.schema';
import { Seller, SellerSchema } from './seller.schema';
import { SkuAdmin } from './sku-admin';
import { Sku, SkuSchema } from './sku.schema';
import { SkuRepository } from './sku.repository';
import { StockReservation } from './stock-reservation';
import {
  STOREFRONT_ENTRY,
  STOREFRONT_FACET,
  StorefrontEntrySchema,
  StorefrontFacetSchema,
} from './storefront-index.schema';
import { StorefrontReader } from './storefront-reader';
import { StorefrontSearchReader } from './storefront-search-reader';
import { StorefrontReindex } from './storefront-reindex';

/**
 * The catalogue: products, SKUs, attributes, categories, sellers and their offers, owned here alone. Other modules use its
 * ports: {@link OfferCatalog} (offers as a cart shows them), {@link StockReservation} (stock taken by orders),
 * {@link SellerDirectory} (sellers), {@link OfferFacets}, {@link StorefrontReader} and {@link StorefrontSearchReader} (the storefront and its index, kept
 * current by every write through these models) and {@link CatalogueImport} (demo data). Operators manage the catalogue
 * through the `catalogueAdminServiceImpl` bean ({@link CatalogueAdminService}). Each collection has one writer: the
 * repositories ({@link AttributeRepository}, {@link ProductRepository}, {@link SkuRepository}) and, for sellers,
 * {@link SellerDirectory} (README, "Who writes the catalogue").
 */
@Module({
  imports: [
    WebhooksModule,
    MongooseModule.forFeature([
      { name: Attribute.name, schema: AttributeSchema },
      { name: Product.name, schema: ProductSchema },
      { name: Sku.name, schema: SkuSchema },
      { name: SellerSku.name, schema: SellerSkuSchema },
      { name: Seller.name, schema: SellerSchema },
      { name: Category.name, schema: CategorySchema },
      { name: STOREFRONT_ENTRY, schema: StorefrontEntrySchema },
      { name: STOREFRONT_FACET, schema: StorefrontFacetSchema },
    ]),
  ],
  controllers: [ProductController, SellerOfferController],
  providers: [
    AttributeRepository,
    ProductRepository,
    SkuRepository,
    ProductCreator,
    OfferCatalog,
    StockReservation,
    SellerDirectory,
    OfferFacets,
    CatalogueImport,
    SellerOffers,
    OfferRepository,
    OfferStock,
    CatalogueTopic,
    StorefrontReader,
    StorefrontSearchReader,
    StorefrontReindex,
    CatalogueReferences,
    CategoryTree,
    AttributeAdmin,
    ProductAdmin,
    SkuAdmin,
    CatalogueAdminService,
  ],
  exports: [
    ProductCreator,
    OfferCatalog,
    StockReservation,
    SellerDirectory,
    OfferFacets,
    CatalogueImport,
    StorefrontReader,
    StorefrontSearchReader,
    StorefrontReindex,
  ],
})
export class CatalogueModule {}

import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { Attribute, AttributeSchema } from './attribute.schema';
import { CatalogueRevisionModule } from './catalogue-revision.module';
import { ProductController } from './product.controller';
import { Product, ProductSchema } from './product.schema';
import { ProductService } from './product.service';
import { SellerSku, SellerSkuSchema } from './seller-sku.schema';
import { Seller, SellerSchema } from './seller.schema';
import { Sku, SkuSchema } from './sku.schema';

/**
 * The shared catalogue schemas (products, SKUs, sellers and their offers) that other modules query, and the
 * catalogue revision that every write through them bumps.
 */
@Module({
  imports: [
    WebhooksModule,
    CatalogueRevisionModule,
    MongooseModule.forFeature([
      { name: Attribute.name, schema: AttributeSchema },
      { name: Product.name, schema: ProductSchema },
      { name: Sku.name, schema: SkuSchema },
      { name: SellerSku.name, schema: SellerSkuSchema },
      { name: Seller.name, schema: SellerSchema },
    ]),
  ],
  controllers: [ProductController],
  providers: [ProductService],
  exports: [MongooseModule, ProductService, CatalogueRevisionModule],
})
export class CatalogueModule {}

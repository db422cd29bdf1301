import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CustomerAnalyticsModule } from '../customer-analytics/customer-analytics.module';
import { Cart, CartSchema } from './cart.schema';
import { CartStore } from './cart-store.service';
import { OfferCatalog } from './offer-catalog.service';
import { ShoppingCartService } from './shopping-cart.service';

/** Exports `CartStore` and the cart model so checkout can read and clear a buyer's cart. */
@Module({
  imports: [
    CatalogueModule,
    CustomerAnalyticsModule,
    MongooseModule.forFeature([{ name: Cart.name, schema: CartSchema }]),
  ],
  providers: [OfferCatalog, CartStore, ShoppingCartService],
  exports: [CartStore, MongooseModule],
})
export class ShoppingCartModule {}

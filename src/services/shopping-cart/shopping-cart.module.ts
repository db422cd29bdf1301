import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountsModule } from '../../auth/accounts.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CustomerAnalyticsModule } from '../customer-analytics/customer-analytics.module';
import { Cart, CartSchema } from './cart.schema';
import { CartStore } from './cart-store.service';
import { OfferCatalog } from './offer-catalog.service';
import { ShoppingCartService } from './shopping-cart.service';

/** Exports `CartStore`, `OfferCatalog` and the cart model: checkout reads and clears carts and prices offers. */
@Module({
  imports: [
    AccountsModule,
    CatalogueModule,
    CustomerAnalyticsModule,
    MongooseModule.forFeature([{ name: Cart.name, schema: CartSchema }]),
  ],
  providers: [OfferCatalog, CartStore, ShoppingCartService],
  exports: [CartStore, OfferCatalog, MongooseModule],
})
export class ShoppingCartModule {}

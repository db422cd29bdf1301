import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountsModule } from '../../auth/accounts.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CustomerAnalyticsModule } from '../customer-analytics/customer-analytics.module';
import { Cart, CartSchema } from './cart.schema';
import { CartStore } from './cart-store.service';
import { ShoppingCartService } from './shopping-cart.service';

/** Exports `CartStore`: checkout reads and clears carts. */
@Module({
  imports: [
    AccountsModule,
    CatalogueModule,
    CustomerAnalyticsModule,
    MongooseModule.forFeature([{ name: Cart.name, schema: CartSchema }]),
  ],
  providers: [CartStore, ShoppingCartService],
  exports: [CartStore],
})
export class ShoppingCartModule {}

import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountsModule } from '../../auth/accounts.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CustomerAnalyticsModule } from '../customer-analytics/customer-analytics.module';
import { DeliveryModule } from '../delivery/delivery.module';
import { GeolocationModule } from '../geolocation/geolocation.module';
import { Cart, CartSchema } from './cart.schema';
import { CartStore } from './cart-store';
import { CartTotals } from './cart-totals';
import { ShoppingCartService } from './shopping-cart.service';

/** Exports `CartStore`: checkout reads and clears carts. */
@Module({
  imports: [
    AccountsModule,
    CatalogueModule,
    CustomerAnalyticsModule,
    DeliveryModule,
    GeolocationModule,
    MongooseModule.forFeature([{ name: Cart.name, schema: CartSchema }]),
  ],
  providers: [CartStore, CartTotals, ShoppingCartService],
  exports: [CartStore],
})
export class ShoppingCartModule {}

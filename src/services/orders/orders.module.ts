import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { InvoicesModule } from '../accounting/invoices';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CustomerAnalyticsModule } from '../customer-analytics/customer-analytics.module';
import { DeliveryModule } from '../delivery/delivery.module';
import { PaymentsModule } from '../payments';
import { ShoppingCartModule } from '../shopping-cart/shopping-cart.module';
import { BuyerInvoice } from './buyer-invoice';
import { CheckoutLock, CheckoutLocks, CheckoutLockSchema } from './checkout-lock';
import { OrderAdmin } from './order-admin';
import { OrderCheckout } from './order-checkout';
import { OrderPayments } from './order-payments';
import { OrderPlacement } from './order-placement';
import { OrderShipping } from './order-shipping';
import { OrderStore } from './order-store';
import { OrderTopic } from './order-topic';
import { OrderTransitions } from './order-transitions';
import { Order, OrderSchema } from './order.schema';
import { OrdersService } from './orders.service';
import { StockReservation } from './stock-reservation';

/**
 * `orderServiceImpl` and the order lifecycle. Exports the order model and store for accounting, and the transitions
 * so other payment modules settle orders through the lifecycle.
 */
@Module({
  imports: [
    CatalogueModule,
    ShoppingCartModule,
    CustomerAnalyticsModule,
    PaymentsModule,
    DeliveryModule,
    InvoicesModule,
    MongooseModule.forFeature([
      { name: Order.name, schema: OrderSchema },
      { name: CheckoutLock.name, schema: CheckoutLockSchema },
    ]),
  ],
  providers: [
    OrdersService,
    OrderStore,
    OrderTransitions,
    OrderPlacement,
    OrderCheckout,
    OrderPayments,
    OrderShipping,
    OrderAdmin,
    OrderTopic,
    StockReservation,
    CheckoutLocks,
    BuyerInvoice,
  ],
  exports: [MongooseModule, OrderStore, OrderTransitions],
})
export class OrdersModule {}

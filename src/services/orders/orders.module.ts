import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ProfilesModule } from '../../auth/profiles/profiles.module';
import { InvoicesModule } from '../accounting/invoices';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CustomerAnalyticsModule } from '../customer-analytics/customer-analytics.module';
import { DeliveryModule } from '../delivery/delivery.module';
import { GeolocationModule } from '../geolocation/geolocation.module';
import { PaymentsModule } from '../payments';
import { ShoppingCartModule } from '../shopping-cart/shopping-cart.module';
import { BuyerCreditNote } from './buyer-credit-note';
import { BuyerInvoice } from './buyer-invoice';
import { CreditNoteRetry } from './credit-note-retry';
import { InvoiceParties } from './invoice-parties';
import { CheckoutLock, CheckoutLocks, CheckoutLockSchema } from './checkout-lock';
import { OrderAdmin } from './order-admin';
import { OrderCancellation } from './order-cancellation';
import { OrderCheckout } from './order-checkout';
import { OrderEvents } from './order-events';
import { OrderExpiry } from './order-expiry';
import { OrderPaymentFlow } from './order-payment-flow';
import { OrderPaidRetry } from './order-paid-retry';
import { OrderPayments } from './order-payments';
import { OrderPlacement } from './order-placement';
import { OrderRefunds } from './order-refunds';
import { OrderShipping } from './order-shipping';
import { OrderRepository } from './order.repository';
import { OrderTopic } from './order-topic';
import { PaymentReturnUrls } from './payment-return-url';
import { SellerOrderDesk } from './seller-order-desk';
import { SellerOrderTopic } from './seller-order-topic';
import { OrderTransitions } from './order-transitions';
import { Order, OrderSchema } from './order.schema';
import { OrdersReport } from './orders-report';
import { OrdersService } from './orders.service';

/**
 * `orderServiceImpl` and the order lifecycle; owns the orders (no other module reads their model). Exports the
 * store (reads, for accounting), the payment state machine, through which other payment modules pay orders, and
 * the buyer-to-vendor invoice (accounting issues it on `order.paid`). Its domain events are in `events/`.
 */
@Module({
  imports: [
    CatalogueModule,
    ShoppingCartModule,
    CustomerAnalyticsModule,
    PaymentsModule,
    DeliveryModule,
    GeolocationModule,
    InvoicesModule,
    ProfilesModule,
    MongooseModule.forFeature([
      { name: Order.name, schema: OrderSchema },
      { name: CheckoutLock.name, schema: CheckoutLockSchema },
    ]),
  ],
  providers: [
    OrdersService,
    OrderRepository,
    OrderTransitions,
    OrderEvents,
    OrderPaidRetry,
    CreditNoteRetry,
    OrderPlacement,
    OrderCheckout,
    OrderPayments,
    OrderPaymentFlow,
    OrderShipping,
    OrderAdmin,
    OrderCancellation,
    OrderExpiry,
    OrderRefunds,
    OrderTopic,
    SellerOrderTopic,
    SellerOrderDesk,
    PaymentReturnUrls,
    CheckoutLocks,
    BuyerInvoice,
    BuyerCreditNote,
    InvoiceParties,
    OrdersReport,
  ],
  exports: [OrderRepository, OrderPaymentFlow, BuyerInvoice, BuyerCreditNote],
})
export class OrdersModule {}

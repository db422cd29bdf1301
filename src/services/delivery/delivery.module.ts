import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { GeolocationModule } from '../geolocation/geolocation.module';
import { PaymentsModule } from '../payments';
import { DeliveryController } from './delivery.controller';
import { LogisticsProvider } from './logistics.provider';
import { CarrierScanController } from './sandbox/carrier-scan.controller';
import { LogisticsSandbox } from './sandbox/logistics-sandbox';
import { SandboxParcel, SandboxParcelSchema } from './sandbox/sandbox-parcel.schema';
import { ShippingQuotes } from './shipping-quotes';

/**
 * Logistics: the provider (the built-in sandbox, bound to {@link LogisticsProvider}), REST, the carrier's tracking webhook (emitted as `parcel.*` domain events) and
 * shipping quotes for sellers' parcels (checkout, cart).
 */
@Module({
  imports: [
    PaymentsModule,
    GeolocationModule,
    MongooseModule.forFeature([{ name: SandboxParcel.name, schema: SandboxParcelSchema }]),
  ],
  controllers: [DeliveryController, CarrierScanController],
  providers: [LogisticsSandbox, { provide: LogisticsProvider, useExisting: LogisticsSandbox }, ShippingQuotes],
  exports: [LogisticsProvider, ShippingQuotes],
})
export class DeliveryModule {}

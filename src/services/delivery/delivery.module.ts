import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { PaymentsModule } from '../payments';
import { DeliveryController } from './delivery.controller';
import { LogisticsProvider } from './logistics.provider';
import { CarrierScanController } from './sandbox/carrier-scan.controller';
import { LogisticsSandbox } from './sandbox/logistics-sandbox';
import { SandboxParcel, SandboxParcelSchema } from './sandbox/sandbox-parcel.schema';
import { TrackingEvents } from './tracking-events';

/** Logistics: the provider (the built-in sandbox, bound to {@link LogisticsProvider}), REST and tracking events. */
@Module({
  imports: [PaymentsModule, MongooseModule.forFeature([{ name: SandboxParcel.name, schema: SandboxParcelSchema }])],
  controllers: [DeliveryController, CarrierScanController],
  providers: [LogisticsSandbox, { provide: LogisticsProvider, useExisting: LogisticsSandbox }, TrackingEvents],
  exports: [LogisticsProvider, TrackingEvents],
})
export class DeliveryModule {}

import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OrdersModule } from '../orders/orders.module';
import { PaymentsModule } from '../payments';
import { AltPaymentProvider } from './alt-payment.provider';
import { AltPaymentCheckout } from './alt-payment-checkout';
import { AltPaymentController } from './alt-payment.controller';
import { AltPaymentKeys } from './alt-payment-keys';
import { AltPaymentSettlement } from './alt-payment-settlement';
import { AltPaymentsService } from './alt-payments.service';
import { AltPaymentPageController } from './sandbox/alt-payment-page.controller';
import { AltPaymentSandbox } from './sandbox/alt-payment-sandbox';
import { SandboxAltPayment, SandboxAltPaymentSchema } from './sandbox/sandbox-alt-payment.schema';

/** `altPaymentServiceImpl`, `/api/v1/altpayment` and the built-in redirect payment sandbox. */
@Module({
  imports: [
    PaymentsModule,
    OrdersModule,
    MongooseModule.forFeature([{ name: SandboxAltPayment.name, schema: SandboxAltPaymentSchema }]),
  ],
  controllers: [AltPaymentController, AltPaymentPageController],
  providers: [
    AltPaymentsService,
    AltPaymentSandbox,
    { provide: AltPaymentProvider, useExisting: AltPaymentSandbox },
    AltPaymentKeys,
    AltPaymentCheckout,
    AltPaymentSettlement,
  ],
})
export class AltPaymentsModule {}

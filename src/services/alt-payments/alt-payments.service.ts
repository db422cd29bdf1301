import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';
import { PaymentStatus } from '../payments';
import { AltPaymentProvider } from './alt-payment.provider';
import { AltPaymentKeys } from './alt-payment-keys';
import { AltPaymentSettlement } from './alt-payment-settlement';

/** `altPaymentServiceImpl`: the merchant's side of alternative payments (capture, cancel) over the provider. */
@Bean('altPaymentServiceImpl', Role.ADMIN)
export class AltPaymentsService {
  constructor(
    private readonly provider: AltPaymentProvider,
    private readonly keys: AltPaymentKeys,
    private readonly settlement: AltPaymentSettlement,
  ) {}

  /** Checks that the provider can be used: 409 when its keys are missing. */
  @Exposed()
  init(): void {
    this.keys.require();
  }

  @Exposed()
  isAltPaymentKeysDefined(): boolean {
    return this.keys.defined();
  }

  /** Captures an AUTHORIZED payment and marks its order PAID; capturing again answers the same status. */
  @Exposed(['String'])
  async chargePayment(paymentId: string): Promise<PaymentStatus> {
    this.keys.require();
    return this.settlement.settle(await this.provider.capture(paymentId));
  }

  /** Voids a payment not yet captured; its order becomes PAYMENT_FAILED, so the buyer may pay again. */
  @Exposed(['String'])
  async cancelPayment(paymentId: string): Promise<PaymentStatus> {
    this.keys.require();
    return this.settlement.settle(await this.provider.cancel(paymentId));
  }
}

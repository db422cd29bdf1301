import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { OrderPaymentFlow } from '../orders/order-payment-flow';
import { PaymentIntentStatus, PaymentStatus } from '../payments';
import { AltPayment, AltPaymentProvider, AltPaymentStatus } from './alt-payment.provider';

/** Whether a payment's state pays its order (true) or fails it (false); undefined while undecided. */
const PAYS: Partial<Record<AltPaymentStatus, boolean>> = {
  [AltPaymentStatus.CAPTURED]: true,
  [AltPaymentStatus.CANCELED]: false,
  [AltPaymentStatus.DECLINED]: false,
};

/** How the order service reports a payment's state (`PaymentStatus.status`). */
const INTENT_STATUS: Record<AltPaymentStatus, PaymentIntentStatus> = {
  [AltPaymentStatus.CREATED]: PaymentIntentStatus.REQUIRES_ACTION,
  [AltPaymentStatus.AUTHORIZED]: PaymentIntentStatus.REQUIRES_ACTION,
  [AltPaymentStatus.CAPTURED]: PaymentIntentStatus.SUCCEEDED,
  [AltPaymentStatus.CANCELED]: PaymentIntentStatus.FAILED,
  [AltPaymentStatus.DECLINED]: PaymentIntentStatus.FAILED,
};

/** Applies the provider's view of a payment to its order, through the orders' payment state machine. */
@Injectable()
export class AltPaymentSettlement {
  private readonly logger = new Logger(AltPaymentSettlement.name);

  constructor(
    private readonly provider: AltPaymentProvider,
    private readonly flow: OrderPaymentFlow,
  ) {}

  /**
   * A webhook's payment: asks the provider for its state and settles its order; safe to repeat. An event about a
   * payment the provider does not know is acknowledged and logged, so it is not redelivered forever.
   */
  async settleById(paymentId: string): Promise<void> {
    let payment: AltPayment;
    try {
      payment = await this.provider.retrieve(paymentId);
    } catch (error) {
      if (!(error instanceof NotFoundException)) throw error;
      this.logger.warn(`Webhook about unknown payment ${paymentId} ignored`);
      return;
    }
    await this.apply(payment);
  }

  /** Settles the payment's order and answers where payment and order stand. */
  async settle(payment: AltPayment): Promise<PaymentStatus> {
    await this.apply(payment);
    return toPaymentStatus(payment, await this.flow.statusOf(payment.orderId));
  }

  /** Settles a decided payment's order ({@link OrderPaymentFlow.settle}); an undecided one changes nothing. */
  private async apply(payment: AltPayment): Promise<void> {
    const paid = PAYS[payment.status];
    if (paid !== undefined) await this.flow.settle(payment, paid, this.provider.name);
  }
}

function toPaymentStatus(payment: AltPayment, orderStatus: string): PaymentStatus {
  const status = INTENT_STATUS[payment.status];
  return {
    orderId: payment.orderId,
    orderStatus,
    paymentIntentId: payment.id,
    status,
    amount: payment.amount,
    currency: payment.currency,
    ...(status === PaymentIntentStatus.REQUIRES_ACTION ? { nextActionUrl: payment.redirectUrl } : {}),
    ...(status === PaymentIntentStatus.FAILED ? { failureCode: payment.status.toLowerCase() } : {}),
  };
}

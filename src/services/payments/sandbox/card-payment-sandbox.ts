import { BadRequestException, ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { isDuplicateKeyError } from '../../../common/mongo/duplicate-key';
import { AppConfig } from '../../../config/app-config';
import {
  CardDetails,
  CardPaymentProvider,
  CardRefundEvent,
  CardRefundEventType,
  ChargeRequest,
  PaymentIntent,
  PaymentIntentStatus,
  PaymentMethod,
  Refund,
  RefundStatus,
} from '../card-payment.provider';
import { SelfUrl } from '../self-url';
import { SignedWebhookSender } from '../signed-webhook-sender';
import { SandboxRefund } from './sandbox-refund.schema';
import { SandboxPaymentIntent } from './sandbox-payment-intent.schema';
import { SandboxPaymentMethod } from './sandbox-payment-method.schema';
import { CardBehaviour, FAILURE_CODES, TEST_CARDS, TEST_PAYMENT_METHODS } from './test-cards';
import { codedError } from '../../../common/errors/coded-exception';

export const CHALLENGE_PATH = '/api/v1/cardpayment/sandbox/3ds';

const STATUS_OF: Record<CardBehaviour, PaymentIntentStatus> = {
  [CardBehaviour.SUCCEED]: PaymentIntentStatus.SUCCEEDED,
  [CardBehaviour.DECLINE]: PaymentIntentStatus.FAILED,
  [CardBehaviour.INSUFFICIENT_FUNDS]: PaymentIntentStatus.FAILED,
  [CardBehaviour.THREE_D_SECURE]: PaymentIntentStatus.REQUIRES_ACTION,
};

/** The built-in card provider: test cards only (see `test-cards.ts`), intents kept in the database. */
@Injectable()
export class CardPaymentSandbox extends CardPaymentProvider {
  readonly name = 'card-sandbox';
  private readonly logger = new Logger(CardPaymentSandbox.name);

  constructor(
    @InjectModel(SandboxPaymentMethod.name) private readonly methods: Model<SandboxPaymentMethod>,
    @InjectModel(SandboxPaymentIntent.name) private readonly intents: Model<SandboxPaymentIntent>,
    @InjectModel(SandboxRefund.name) private readonly refunds: Model<SandboxRefund>,
    private readonly self: SelfUrl,
    private readonly sender: SignedWebhookSender,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async createPaymentMethod(card: CardDetails, customerId: string): Promise<PaymentMethod> {
    const testCard = TEST_CARDS.get(card.number);
    if (!testCard) throw new BadRequestException('The sandbox accepts its test card numbers only');
    assertNotExpired(card);
    const created = await this.methods.create({
      methodId: newId('pm'),
      customerId,
      brand: testCard.brand,
      last4: card.number.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear,
      behaviour: testCard.behaviour,
    });
    return toPaymentMethod(created);
  }

  async charge(request: ChargeRequest): Promise<PaymentIntent> {
    if (!Number.isInteger(request.amount) || request.amount <= 0) {
      throw new BadRequestException('The amount must be a positive whole number of minor units');
    }
    const previous = await this.intents.findOne({ idempotencyKey: request.idempotencyKey }).lean().exec();
    if (previous) return toIntent(previous);
    const behaviour = await this.behaviourOf(request.paymentMethodId, request.customerId);
    try {
      const created = await this.intents.create({
        ...request,
        intentId: newId('pi'),
        status: STATUS_OF[behaviour],
        failureCode: FAILURE_CODES[behaviour],
      });
      return toIntent(created);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return this.charge(request);
    }
  }

  async retrieve(paymentIntentId: string): Promise<PaymentIntent> {
    const intent = await this.intents
      .findOne({ intentId: String(paymentIntentId) })
      .lean()
      .exec();
    if (!intent) throw new NotFoundException(`Payment intent ${paymentIntentId} not found`);
    return toIntent(intent);
  }

  async threeDSecureLink(paymentIntentId: string): Promise<string> {
    const intent = await this.retrieve(paymentIntentId);
    if (intent.status !== PaymentIntentStatus.REQUIRES_ACTION) {
      throw new ConflictException(`Payment intent ${intent.id} needs no 3-D Secure challenge (it is ${intent.status})`);
    }
    return `${this.self.public()}${CHALLENGE_PATH}/${intent.id}`;
  }

  async cancel(paymentIntentId: string): Promise<PaymentIntent> {
    const canceled = await this.intents
      .findOneAndUpdate(
        { intentId: String(paymentIntentId), status: PaymentIntentStatus.REQUIRES_ACTION },
        { $set: { status: PaymentIntentStatus.CANCELED, failureCode: 'canceled' } },
        { returnDocument: 'after' },
      )
      .lean()
      .exec();
    return canceled ? toIntent(canceled) : this.retrieve(paymentIntentId);
  }

  /** Where the challenge page of the intent sends the buyer back: the charge's `returnUrl`, else `PUBLIC_URL`. */
  async returnUrlOf(paymentIntentId: string): Promise<string> {
    const intent = await this.intents
      .findOne({ intentId: String(paymentIntentId) }, { returnUrl: 1 })
      .lean()
      .exec();
    return intent?.returnUrl ?? `${this.self.public()}/`;
  }

  /** The buyer's answer to the challenge: the intent succeeds or fails, once (409 when already settled). */
  async completeChallenge(paymentIntentId: string, passed: boolean): Promise<PaymentIntent> {
    const status = passed ? PaymentIntentStatus.SUCCEEDED : PaymentIntentStatus.FAILED;
    const settled = await this.intents
      .findOneAndUpdate(
        { intentId: String(paymentIntentId), status: PaymentIntentStatus.REQUIRES_ACTION },
        { $set: { status, ...(passed ? {} : { failureCode: 'authentication_failed' }) } },
        { returnDocument: 'after' },
      )
      .lean()
      .exec();
    if (settled) return toIntent(settled);
    const intent = await this.retrieve(paymentIntentId);
    throw new ConflictException(`Payment intent ${intent.id} is already ${intent.status}`);
  }

  /**
   * Refunds at once, like a provider's test mode, and then (after answering, as a real provider does) sends the
   * signed `charge.refunded` webhook. The intent's refunded sum grows by one conditional update, so two refunds at
   * once never give back more than was charged.
   */
  async refund(paymentIntentId: string, amount: number, reference: string): Promise<Refund> {
    if (!Number.isInteger(amount) || amount <= 0) {
      throw new BadRequestException('The amount must be a positive whole number of minor units');
    }
    const previous = await this.refunds
      .findOne({ reference: String(reference) })
      .lean()
      .exec();
    if (previous) return toRefund(previous);
    const intent = await this.takeRefundable(String(paymentIntentId), amount);
    let created: SandboxRefund;
    try {
      created = await this.refunds.create({
        refundId: newId('re'),
        reference,
        paymentIntentId: intent.intentId,
        orderId: intent.orderId,
        amount,
        currency: intent.currency,
        status: RefundStatus.SUCCEEDED,
      });
    } catch (error) {
      await this.intents.updateOne({ intentId: intent.intentId }, { $inc: { refunded: -amount } }).exec();
      if (!isDuplicateKeyError(error)) throw error;
      return this.refund(paymentIntentId, amount, reference);
    }
    const refund = toRefund(created);
    setImmediate(() => void this.notifyRefund(refund));
    return refund;
  }

  async retrieveRefund(refundId: string): Promise<Refund> {
    const refund = await this.refunds
      .findOne({ refundId: String(refundId) })
      .lean()
      .exec();
    if (!refund) throw new NotFoundException(`Refund ${refundId} not found`);
    return toRefund(refund);
  }

  private async takeRefundable(intentId: string, amount: number): Promise<SandboxPaymentIntent> {
    const left = { $subtract: ['$amount', { $ifNull: ['$refunded', 0] }] };
    const taken = await this.intents
      .findOneAndUpdate(
        { intentId, status: PaymentIntentStatus.SUCCEEDED, $expr: { $gte: [left, amount] } },
        { $inc: { refunded: amount } },
        { returnDocument: 'after' },
      )
      .lean()
      .exec();
    if (taken) return taken;
    const intent = await this.retrieve(intentId);
    if (intent.status !== PaymentIntentStatus.SUCCEEDED) {
      throw codedError('NOTHING_TO_REFUND', `Payment intent ${intent.id} is ${intent.status}: nothing to refund`);
    }
    throw codedError('NOTHING_TO_REFUND', `Payment intent ${intent.id} has less than ${amount} left to refund`);
  }

  private async notifyRefund(refund: Refund): Promise<void> {
    const event: CardRefundEvent = {
      id: newId('evt'),
      type: CardRefundEventType.REFUNDED,
      created: Math.floor(Date.now() / 1000),
      data: refund,
    };
    try {
      await this.sender.send('/api/v1/cardpayment', event, this.config.webhookSecrets.cardPayment);
    } catch (error) {
      this.logger.error(`Refund ${refund.id}: its webhook was not delivered`, String(error));
    }
  }

  /**
   * How the card behaves; the ready-made test methods serve everyone, a tokenized one only its customer. Another
   * customer's method is refused exactly like an unknown one, so its existence does not show.
   */
  private async behaviourOf(paymentMethodId: string, customerId: string): Promise<CardBehaviour> {
    const alias = TEST_PAYMENT_METHODS.get(paymentMethodId);
    if (alias) return TEST_CARDS.get(alias)!.behaviour;
    const method = await this.methods
      .findOne({ methodId: String(paymentMethodId), customerId: String(customerId) })
      .lean()
      .exec();
    if (!method) throw new BadRequestException(`No such payment method: ${paymentMethodId}`);
    return method.behaviour;
  }
}

function assertNotExpired({ expMonth, expYear }: CardDetails): void {
  const now = new Date();
  if (expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1)) {
    throw new BadRequestException('The card has expired');
  }
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function toPaymentMethod(method: SandboxPaymentMethod): PaymentMethod {
  const { methodId, brand, last4, expMonth, expYear } = method;
  return { id: methodId, brand, last4, expMonth, expYear };
}

function toIntent(intent: SandboxPaymentIntent): PaymentIntent {
  const { intentId, orderId, amount, currency, paymentMethodId, status, failureCode } = intent;
  return { id: intentId, orderId, amount, currency, paymentMethodId, status, ...(failureCode ? { failureCode } : {}) };
}

function toRefund(refund: SandboxRefund): Refund {
  const { refundId, paymentIntentId, orderId, amount, currency, status, reference } = refund;
  return { id: refundId, paymentIntentId, orderId, amount, currency, status, reference };
}

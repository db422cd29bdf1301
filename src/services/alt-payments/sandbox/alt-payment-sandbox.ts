import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { isDuplicateKeyError } from '../../../common/mongo/duplicate-key';
import { SelfUrl } from '../../payments';
import { AltPayment, AltPaymentProvider, AltPaymentStatus, CreateAltPayment } from '../alt-payment.provider';
import { SandboxAltPayment } from './sandbox-alt-payment.schema';

export const SANDBOX_PAGE_PATH = '/api/v1/altpayment/sandbox';

/** The built-in alternative payment provider: payments in the database, the buyer's page served by this app. */
@Injectable()
export class AltPaymentSandbox extends AltPaymentProvider {
  readonly name = 'sandbox-altpay';

  constructor(
    @InjectModel(SandboxAltPayment.name) private readonly payments: Model<SandboxAltPayment>,
    private readonly self: SelfUrl,
  ) {
    super();
  }

  async create(request: CreateAltPayment): Promise<AltPayment> {
    const paymentId = `ap_${randomBytes(16).toString('hex')}`;
    try {
      return this.view(await this.payments.create({ ...request, paymentId, status: AltPaymentStatus.CREATED }));
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return this.view(await this.payments.findOne({ idempotencyKey: request.idempotencyKey }).lean().orFail().exec());
    }
  }

  async retrieve(paymentId: string): Promise<AltPayment> {
    const payment = await this.payments
      .findOne({ paymentId: String(paymentId) })
      .lean()
      .exec();
    if (!payment) throw new NotFoundException(`Payment ${paymentId} not found`);
    return this.view(payment);
  }

  capture(paymentId: string): Promise<AltPayment> {
    return this.move(paymentId, [AltPaymentStatus.AUTHORIZED], AltPaymentStatus.CAPTURED);
  }

  cancel(paymentId: string): Promise<AltPayment> {
    return this.move(paymentId, [AltPaymentStatus.CREATED, AltPaymentStatus.AUTHORIZED], AltPaymentStatus.CANCELED);
  }

  /** The buyer's answer on the sandbox page. */
  answer(paymentId: string, approve: boolean): Promise<AltPayment> {
    const to = approve ? AltPaymentStatus.AUTHORIZED : AltPaymentStatus.DECLINED;
    return this.move(paymentId, [AltPaymentStatus.CREATED], to);
  }

  /** One conditional update; repeating a move that already happened answers the payment as it is. */
  private async move(paymentId: string, from: AltPaymentStatus[], to: AltPaymentStatus): Promise<AltPayment> {
    const moved = await this.payments
      .findOneAndUpdate(
        { paymentId: String(paymentId), status: { $in: from } },
        { $set: { status: to } },
        { returnDocument: 'after' },
      )
      .lean()
      .exec();
    if (moved) return this.view(moved);
    const current = await this.retrieve(paymentId);
    if (current.status === to) return current;
    throw new ConflictException(`Payment ${paymentId} is ${current.status}; it cannot become ${to}`);
  }

  private view(payment: SandboxAltPayment): AltPayment {
    const { paymentId, orderId, amount, currency, status, returnUrl } = payment;
    const redirectUrl = `${this.self.public()}${SANDBOX_PAGE_PATH}/${paymentId}`;
    return { id: paymentId, orderId, amount, currency, status, returnUrl, redirectUrl };
  }
}

import { IsMongoId } from 'class-validator';

/** `POST /api/v1/altpayment`: the buyer's own order to pay. */
export class StartAltPaymentDto {
  @IsMongoId() orderId!: string;
}

/** What the buyer's client needs to redirect, and what the return URL reports. */
export interface AltPaymentView {
  paymentId: string;
  orderId: string;
  status: string;
  redirectUrl: string;
}

import { PaymentIntentStatus } from './card-payment.provider';

/** What `orderServiceImpl.pay` answers: the charge's outcome and where the order stands. */
export interface PaymentStatus {
  orderId: string;
  orderStatus: string;
  paymentIntentId: string;
  status: PaymentIntentStatus;
  amount: number;
  currency: string;
  /** Set when `status` is REQUIRES_ACTION: the 3-D Secure challenge URL (also given by `obtain3DSecureLink`). */
  nextActionUrl?: string;
  failureCode?: string;
}

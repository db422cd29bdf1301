/** States of an order (DESIGN §7). */
export enum OrderStatus {
  NEW = 'NEW',
  APPROVED = 'APPROVED',
  PAYMENT_PENDING = 'PAYMENT_PENDING',
  PAYMENT_FAILED = 'PAYMENT_FAILED',
  PAID = 'PAID',
  SHIPPED = 'SHIPPED',
  DELIVERED = 'DELIVERED',
  CANCELED = 'CANCELED',
  /** Every item refunded through the payment provider after payment. */
  REFUNDED = 'REFUNDED',
}

/** Orders whose stock is reserved but not paid for: canceling or removing them gives the stock back. */
export const UNPAID: readonly OrderStatus[] = [OrderStatus.NEW, OrderStatus.APPROVED, OrderStatus.PAYMENT_FAILED];

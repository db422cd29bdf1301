import { OrderStatus } from './order-status';

/**
 * Allowed moves (DESIGN §7 as changed by issue 18): `NEW → APPROVED → PAYMENT_PENDING → PAID → SHIPPED →
 * DELIVERED`. Checkout approves at once unless `ORDER_APPROVAL=manual`. An unpaid order (NEW, APPROVED,
 * PAYMENT_FAILED) may be CANCELED; a failed payment goes back to APPROVED on retry. A paid order becomes CANCELED
 * only once the buyer's cancellation is refunded, and REFUNDED once all its items are refunded (also after shipping).
 * Every charge passes through PAYMENT_PENDING: entering it is the conditional update that lets exactly one of two
 * concurrent `pay` calls charge.
 */
const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  [OrderStatus.NEW]: [OrderStatus.APPROVED, OrderStatus.CANCELED],
  [OrderStatus.APPROVED]: [OrderStatus.PAYMENT_PENDING, OrderStatus.CANCELED],
  [OrderStatus.PAYMENT_PENDING]: [OrderStatus.PAID, OrderStatus.PAYMENT_FAILED],
  [OrderStatus.PAYMENT_FAILED]: [OrderStatus.APPROVED, OrderStatus.CANCELED],
  [OrderStatus.PAID]: [OrderStatus.SHIPPED, OrderStatus.REFUNDED, OrderStatus.CANCELED],
  [OrderStatus.SHIPPED]: [OrderStatus.DELIVERED, OrderStatus.REFUNDED],
  [OrderStatus.DELIVERED]: [OrderStatus.REFUNDED],
  [OrderStatus.CANCELED]: [],
  [OrderStatus.REFUNDED]: [],
};

/** The statuses an order may move into `to` from. */
export function sourcesOf(to: OrderStatus): OrderStatus[] {
  return (Object.keys(NEXT) as OrderStatus[]).filter((from) => NEXT[from].includes(to));
}

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

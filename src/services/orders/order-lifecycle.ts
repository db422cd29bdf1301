import { OrderStatus } from './order-status';

/**
 * Allowed moves (DESIGN §7): `NEW → APPROVED → PAYMENT_PENDING → PAID → SHIPPED → DELIVERED`, `CANCELED`
 * from NEW or APPROVED, a failed payment back to APPROVED on retry. Every charge passes through
 * PAYMENT_PENDING: entering it is the conditional update that lets exactly one of two concurrent `pay` calls
 * charge.
 */
const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  [OrderStatus.NEW]: [OrderStatus.APPROVED, OrderStatus.CANCELED],
  [OrderStatus.APPROVED]: [OrderStatus.PAYMENT_PENDING, OrderStatus.CANCELED],
  [OrderStatus.PAYMENT_PENDING]: [OrderStatus.PAID, OrderStatus.PAYMENT_FAILED],
  [OrderStatus.PAYMENT_FAILED]: [OrderStatus.APPROVED],
  [OrderStatus.PAID]: [OrderStatus.SHIPPED],
  [OrderStatus.SHIPPED]: [OrderStatus.DELIVERED],
  [OrderStatus.DELIVERED]: [],
  [OrderStatus.CANCELED]: [],
};

/** The statuses an order may move into `to` from. */
export function sourcesOf(to: OrderStatus): OrderStatus[] {
  return (Object.keys(NEXT) as OrderStatus[]).filter((from) => NEXT[from].includes(to));
}

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

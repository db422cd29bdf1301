import { canMove, sourcesOf } from './order-lifecycle';
import { OrderStatus, UNPAID } from './order-status';

describe('order lifecycle', () => {
  it('should follow NEW → APPROVED → PAYMENT_PENDING → PAID → SHIPPED → DELIVERED', () => {
    const path = [
      OrderStatus.NEW,
      OrderStatus.APPROVED,
      OrderStatus.PAYMENT_PENDING,
      OrderStatus.PAID,
      OrderStatus.SHIPPED,
      OrderStatus.DELIVERED,
    ];
    path.slice(1).forEach((to, i) => expect(canMove(path[i], to)).toBe(true));
  });

  it('should cancel unpaid orders, and a paid one (its refund settled), never one being charged or shipped', () => {
    expect(sourcesOf(OrderStatus.CANCELED).sort()).toEqual([...UNPAID, OrderStatus.PAID].sort());
    expect(canMove(OrderStatus.PAYMENT_PENDING, OrderStatus.CANCELED)).toBe(false);
    expect(canMove(OrderStatus.SHIPPED, OrderStatus.CANCELED)).toBe(false);
  });

  it('should refund only paid orders, before or after shipping', () => {
    const refundable = [OrderStatus.PAID, OrderStatus.SHIPPED, OrderStatus.DELIVERED];
    expect(sourcesOf(OrderStatus.REFUNDED).sort()).toEqual(refundable.sort());
  });

  it('should retry a failed payment through APPROVED', () => {
    expect(canMove(OrderStatus.PAYMENT_FAILED, OrderStatus.APPROVED)).toBe(true);
    expect(canMove(OrderStatus.PAYMENT_FAILED, OrderStatus.PAID)).toBe(false);
  });

  it('should never leave CANCELED or REFUNDED, leave DELIVERED only by a refund, nor skip payment', () => {
    for (const to of Object.values(OrderStatus)) {
      expect(canMove(OrderStatus.CANCELED, to)).toBe(false);
      expect(canMove(OrderStatus.REFUNDED, to)).toBe(false);
      expect(canMove(OrderStatus.DELIVERED, to)).toBe(to === OrderStatus.REFUNDED);
    }
    expect(canMove(OrderStatus.APPROVED, OrderStatus.SHIPPED)).toBe(false);
    expect(canMove(OrderStatus.NEW, OrderStatus.PAID)).toBe(false);
    expect(canMove(OrderStatus.APPROVED, OrderStatus.REFUNDED)).toBe(false);
  });
});

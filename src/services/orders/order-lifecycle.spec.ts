import { canMove, sourcesOf } from './order-lifecycle';
import { OrderStatus } from './order-status';

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

  it('should cancel only from NEW or APPROVED', () => {
    expect(sourcesOf(OrderStatus.CANCELED).sort()).toEqual([OrderStatus.APPROVED, OrderStatus.NEW]);
  });

  it('should retry a failed payment through APPROVED', () => {
    expect(canMove(OrderStatus.PAYMENT_FAILED, OrderStatus.APPROVED)).toBe(true);
    expect(canMove(OrderStatus.PAYMENT_FAILED, OrderStatus.PAID)).toBe(false);
  });

  it('should never leave DELIVERED or CANCELED, nor skip payment', () => {
    for (const to of Object.values(OrderStatus)) {
      expect(canMove(OrderStatus.DELIVERED, to)).toBe(false);
      expect(canMove(OrderStatus.CANCELED, to)).toBe(false);
    }
    expect(canMove(OrderStatus.APPROVED, OrderStatus.SHIPPED)).toBe(false);
    expect(canMove(OrderStatus.NEW, OrderStatus.PAID)).toBe(false);
  });
});

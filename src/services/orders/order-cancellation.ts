import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { Principal } from '../../common/principal';
import { StockReservation } from '../catalogue/stock-reservation';
import { OrderRefunds } from './order-refunds';
import { UNPAID } from './order-status';
import { OrderRepository } from './order.repository';
import { OrderTransitions } from './order-transitions';
import { OrderStatus } from './order.schema';
import { StoredOrder } from './order.view';
import { codedError } from '../../common/errors/coded-exception';

/** Cancels orders: the buyer's own before shipment, an ADMIN's, or the expiry of unpaid ones. */
@Injectable()
export class OrderCancellation {
  constructor(
    private readonly store: OrderRepository,
    private readonly transitions: OrderTransitions,
    private readonly stock: StockReservation,
    private readonly refunds: OrderRefunds,
  ) {}

  /**
   * The buyer's cancellation (an ADMIN's of any order): an unpaid order is CANCELED and its stock released at once; a
   * PAID one is refunded in full and becomes CANCELED once the provider's webhook settles the refund. 409 while a
   * charge is in flight (PAYMENT_PENDING) and once shipped; 403 for another buyer's order.
   */
  async cancelByBuyer(orderId: string, buyer: Principal): Promise<StoredOrder> {
    const order = await this.store.findOwn(orderId, buyer);
    if (UNPAID.includes(order.status)) return this.cancelUnpaid(orderId, buyer.id);
    if (order.status === OrderStatus.PAID) return this.refunds.cancelPaid(order, buyer);
    if (order.status === OrderStatus.PAYMENT_PENDING) {
      throw codedError(
        'ORDER_NOT_CANCELABLE',
        `Order ${orderId} is being charged; cancel it once the payment is decided`,
      );
    }
    throw codedError('ORDER_NOT_CANCELABLE', `Order ${orderId} is ${order.status}; it can no longer be canceled`);
  }

  /**
   * Cancels an unpaid order (and only while it is unpaid and `where` holds: one conditional update, so of two
   * concurrent cancellations one wins) and gives its stock back, exactly once. 409 when it is no longer unpaid.
   */
  async cancelUnpaid(orderId: string, by: string, where: Record<string, unknown> = {}): Promise<StoredOrder> {
    return this.transitions.move(orderId, OrderStatus.CANCELED, by, {
      where: { ...where, status: { $in: UNPAID } },
      effects: (canceled) => this.stock.release(stockOf(canceled)),
    });
  }
}

export function stockOf(order: StoredOrder): { sellerSku: Types.ObjectId; quantity: number }[] {
  return order.commerceItems.map(({ sellerSku, quantity }) => ({ sellerSku, quantity }));
}

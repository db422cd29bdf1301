import { Injectable, Logger } from '@nestjs/common';
import { DomainEventName, OrderEvent } from '../../events/domain-event-map';
import { DomainEvents } from '../../events/domain-events';
import { OrderStatus, OrderTimeLine } from './order.schema';
import { OrderRepository } from './order.repository';
import { StoredOrder } from './order.view';

type OrderEventName = Extract<DomainEventName, `order.${string}`>;

/** The event of a move that changes the status. */
const EVENT_OF_STATUS: Partial<Record<OrderStatus, OrderEventName>> = {
  [OrderStatus.PAID]: 'order.paid',
  [OrderStatus.SHIPPED]: 'order.shipped',
  [OrderStatus.DELIVERED]: 'order.delivered',
  [OrderStatus.CANCELED]: 'order.canceled',
  [OrderStatus.REFUNDED]: 'order.refunded',
};

/**
 * A settled refund is `order.refunded`, also a partial one that keeps the status; the buyer's cancellation of a paid
 * order settles as `order.canceled`. Other moves that keep the status have no event.
 */
function eventOf(entry: OrderTimeLine, statusChanged: boolean): OrderEventName | undefined {
  if (entry.refundId && entry.status !== OrderStatus.CANCELED) return 'order.refunded';
  return statusChanged ? EVENT_OF_STATUS[entry.status] : undefined;
}

/** The entry of an order's (last) move to PAID. */
export function paidEntryOf(order: StoredOrder): OrderTimeLine | undefined {
  return order.orderTimeLines.findLast((entry) => entry.status === OrderStatus.PAID);
}

/**
 * Emits the domain events of orders ({@link DomainEventMap}'s `order.*`). The move already happened when they are
 * emitted, so a listener's failure is logged and never fails it. `order.paid` is delivered durably: the move to PAID
 * marks the order `invoiceDueAt` in its own update, the mark is removed once every listener succeeded, and
 * `OrderPaidRetry` emits the event again for orders still marked later (a listener failed, or the process died), so
 * its listeners must be idempotent.
 */
@Injectable()
export class OrderEvents {
  private readonly logger = new Logger(OrderEvents.name);

  constructor(
    private readonly orders: OrderRepository,
    private readonly events: DomainEvents,
  ) {}

  async placed(order: StoredOrder): Promise<void> {
    await this.emitLogged('order.placed', { order, entry: order.orderTimeLines[0] });
  }

  async moved(order: StoredOrder, entry: OrderTimeLine, statusChanged: boolean): Promise<void> {
    const name = eventOf(entry, statusChanged);
    if (name === 'order.paid') await this.paid({ order, entry });
    else if (name) await this.emitLogged(name, { order, entry });
  }

  /** Runs the `order.paid` listeners; true, and the order's mark removed, when every one of them succeeded. */
  async paid(event: OrderEvent): Promise<boolean> {
    if (!(await this.emitLogged('order.paid', event))) return false;
    await this.orders.clearInvoiceDue(event.order._id);
    return true;
  }

  private async emitLogged(name: OrderEventName, event: OrderEvent): Promise<boolean> {
    try {
      await this.events.emit(name, event);
      return true;
    } catch (error) {
      this.logger.error(
        `A listener of ${name} failed on order ${String(event.order._id)}: ${(error as Error).message}`,
      );
      return false;
    }
  }
}

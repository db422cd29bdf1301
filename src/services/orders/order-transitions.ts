import { ConflictException, Injectable } from '@nestjs/common';
import { isValidObjectId, UpdateQuery } from 'mongoose';
import { EventPublisher } from '../../realtime/event-publisher';
import { CustomerActivityRecorder } from '../customer-analytics/customer-activity-recorder';
import { CustomerActivityType } from '../customer-analytics/customer-activity-type';
import { StockReservation } from '../catalogue/stock-reservation';
import { canMove, sourcesOf } from './order-lifecycle';
import { OrderEvents } from './order-events';
import { OrderRepository } from './order.repository';
import { Order, OrderStatus, OrderTimeLine } from './order.schema';
import { StoredOrder, toOrderView } from './order.view';
import { codedError } from '../../common/errors/coded-exception';
import { unitsToShip } from './refund-plan';
import { SellerOrderTopic } from './seller-order-topic';

/**
 * Further conditions and changes of a transition, e.g. the payment intent it must match and the parcel it sets.
 * `where.status` narrows the statuses the order may come from.
 */
export interface TransitionOptions {
  where?: Record<string, unknown>;
  set?: Record<string, unknown>;
  /** Other operators of the same update (e.g. `$inc`). */
  also?: Omit<UpdateQuery<Order>, '$set' | '$push'>;
  /** More about the time line entry, e.g. the refund it settles. */
  entry?: Pick<OrderTimeLine, 'refundId'>;
  /**
   * Work that only the winner of the move does (once), before the move is published, e.g. giving stock back: who sees
   * the new status sees its effects.
   */
  effects?: (moved: StoredOrder) => Promise<void>;
}

/**
 * Moves orders through their lifecycle (DESIGN §7). A move is one conditional update on the current status, so of
 * two concurrent moves only one wins and the other is a 409; the entry is appended to `orderTimeLines`, published on
 * `/topic/order/{id}` as `order.status`, recorded as the buyer's ORDER_STATUS activity, and then emitted as its domain
 * event ({@link OrderEvents}: `order.paid`, `order.shipped`, ...).
 */
@Injectable()
export class OrderTransitions {
  constructor(
    private readonly store: OrderRepository,
    private readonly events: EventPublisher,
    private readonly activity: CustomerActivityRecorder,
    private readonly orderEvents: OrderEvents,
    private readonly stock: StockReservation,
    private readonly sellerTopic: SellerOrderTopic,
  ) {}

  /** @throws 404 unknown order, 409 when the order is not in a status that may become `to` (or `where` fails) */
  async move(orderId: string, to: OrderStatus, by: string, options: TransitionOptions = {}): Promise<StoredOrder> {
    const updated = await this.apply(orderId, { $in: sourcesOf(to) }, to, by, options);
    if (!updated) throw await this.refusal(orderId, to);
    return updated;
  }

  /**
   * Like {@link move}, but only from exactly `from`, which `to` may equal (a change worth an entry that keeps the
   * status, e.g. a partial refund). Null when the order is no longer `from` or `where` fails: the caller decides.
   */
  async moveFrom(
    orderId: string,
    from: OrderStatus,
    to: OrderStatus,
    by: string,
    options: TransitionOptions = {},
  ): Promise<StoredOrder | null> {
    if (from !== to && !canMove(from, to))
      throw codedError('ORDER_STATUS_CONFLICT', `An order cannot go from ${from} to ${to}`);
    return this.apply(orderId, from, to, by, options);
  }

  /** Publishes a new order and emits `order.placed`. */
  async placed(order: StoredOrder): Promise<void> {
    this.announce(order, order.orderTimeLines[0]);
    await this.orderEvents.placed(order);
  }

  /** Publishes an order's current status (a transition, or its creation). */
  private announce(order: StoredOrder, entry: OrderTimeLine): void {
    const id = String(order._id);
    this.events.publish(`/topic/order/${id}`, { event: 'order.status', id, data: toOrderView(order) });
    this.sellerTopic.announce(order, entry.status);
    void this.activity.record(order.embeddedBuyer.userId, CustomerActivityType.ORDER_STATUS, {
      orderId: id,
      status: entry.status,
      by: entry.by,
    });
  }

  private async apply(
    orderId: string,
    from: unknown,
    to: OrderStatus,
    by: string,
    options: TransitionOptions,
  ): Promise<StoredOrder | null> {
    if (!isValidObjectId(orderId)) return null;
    const entry: OrderTimeLine = { status: to, at: new Date(), by, ...options.entry };
    const paid = from !== to && to === OrderStatus.PAID;
    // Owing `order.paid` is recorded with the payment itself: if this process dies before emitting it, a sweep does.
    const set = { ...options.set, status: to, ...(paid ? { invoiceDueAt: entry.at } : {}) };
    const move = { where: options.where, set, also: options.also, entry };
    const updated = await this.store.moveStatus(orderId, from, move);
    if (!updated) return null;
    await options.effects?.(updated);
    const statusChanged = from !== to; // a partial refund keeps the status: no dispatch, no second `order.paid`
    if (statusChanged && to === OrderStatus.SHIPPED) await this.stock.dispatch(unitsToShip(updated));
    this.announce(updated, entry);
    await this.orderEvents.moved(updated, entry, statusChanged);
    return updated;
  }

  private async refusal(orderId: string, to: OrderStatus): Promise<ConflictException> {
    const order = await this.store.find(orderId);
    return codedError('ORDER_STATUS_CONFLICT', `Order ${orderId} is ${order.status}; it cannot become ${to} now`);
  }
}

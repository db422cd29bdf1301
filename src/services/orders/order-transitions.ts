import { ConflictException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, Model } from 'mongoose';
import { EventPublisher } from '../../realtime/event-publisher';
import { CustomerActivityRecorder } from '../customer-analytics/customer-activity-recorder';
import { CustomerActivityType } from '../customer-analytics/customer-activity-type';
import { StockReservation } from '../catalogue/stock-reservation';
import { sourcesOf } from './order-lifecycle';
import { OrderPaidHook } from './order-paid-hook';
import { OrderStore } from './order-store';
import { Order, OrderStatus, OrderTimeLine } from './order.schema';
import { StoredOrder, toOrderView } from './order.view';

/** Further conditions and changes of a transition, e.g. the payment intent it must match and the parcel it sets. */
export interface TransitionOptions {
  where?: Record<string, unknown>;
  set?: Partial<Order>;
}

/** Shipped goods leave the seller's stock on hand (the catalogue's reservation ends). */
const stockLinesOf = (order: StoredOrder) =>
  order.commerceItems.map(({ sellerSku, quantity }) => ({ sellerSku, quantity }));

/**
 * Moves orders through their lifecycle (DESIGN §7). A move is one conditional update on the current status, so of
 * two concurrent moves only one wins and the other is a 409; the entry is appended to `orderTimeLines`, published on
 * `/topic/order/{id}` as `order.status` and recorded as the buyer's ORDER_STATUS activity. A move to PAID then runs
 * the {@link OrderPaidHook}'s listeners.
 */
@Injectable()
export class OrderTransitions {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly store: OrderStore,
    private readonly events: EventPublisher,
    private readonly activity: CustomerActivityRecorder,
    private readonly paidHook: OrderPaidHook,
    private readonly stock: StockReservation,
  ) {}

  /** @throws 404 unknown order, 409 when the order is not in a status that may become `to` (or `where` fails) */
  async move(orderId: string, to: OrderStatus, by: string, options: TransitionOptions = {}): Promise<StoredOrder> {
    const entry: OrderTimeLine = { status: to, at: new Date(), by };
    const updated = isValidObjectId(orderId)
      ? await this.orders
          .findOneAndUpdate(
            { _id: String(orderId), status: { $in: sourcesOf(to) }, ...options.where },
            { $set: { ...options.set, status: to }, $push: { orderTimeLines: entry } },
            { returnDocument: 'after' },
          )
          .lean<StoredOrder>()
          .exec()
      : null;
    if (!updated) throw await this.refusal(orderId, to);
    if (to === OrderStatus.SHIPPED) await this.stock.dispatch(stockLinesOf(updated));
    this.announce(updated, entry);
    if (to === OrderStatus.PAID) await this.paidHook.paid(updated);
    return updated;
  }

  /** Publishes an order's current status (a transition, or its creation). */
  announce(order: StoredOrder, entry: OrderTimeLine): void {
    const id = String(order._id);
    this.events.publish(`/topic/order/${id}`, { event: 'order.status', id, data: toOrderView(order) });
    void this.activity.record(order.embeddedBuyer.userId, CustomerActivityType.ORDER_STATUS, {
      orderId: id,
      status: entry.status,
      by: entry.by,
    });
  }

  private async refusal(orderId: string, to: OrderStatus): Promise<ConflictException> {
    const order = await this.store.find(orderId);
    return new ConflictException(`Order ${orderId} is ${order.status}; it cannot become ${to} now`);
  }
}

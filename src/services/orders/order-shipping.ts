import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { Principal } from '../../common/principal';
import {
  LogisticsProvider,
  Parcel,
  ParcelStatus,
  TrackingEvent,
  TrackingEventType,
} from '../delivery/logistics.provider';
import { OnDomainEvent } from '../../events/domain-events';
import { OrderRefundStatus } from './order-parts.schema';
import { isRefusal } from './refusal';
import { OrderRepository } from './order.repository';
import { OrderTransitions } from './order-transitions';
import { OrderStatus } from './order.schema';
import { StoredOrder } from './order.view';
import { codedError } from '../../common/errors/coded-exception';

/** The carrier's parcel statuses that confirm each tracking event (a parcel since delivered was picked up). */
const CONFIRMED_BY: Record<TrackingEventType, readonly ParcelStatus[]> = {
  [TrackingEventType.PICKED_UP]: [ParcelStatus.PICKED_UP, ParcelStatus.DELIVERED],
  [TrackingEventType.DELIVERED]: [ParcelStatus.DELIVERED],
};

/** A paid order the buyer is canceling (its refund pending) does not ship. */
const NOT_BEING_CANCELED = { refunds: { $not: { $elemMatch: { cancel: true, status: OrderRefundStatus.PENDING } } } };

/** Ships and delivers orders: by their seller's user or an ADMIN, or by the carrier's tracking webhooks. */
@Injectable()
export class OrderShipping {
  private readonly logger = new Logger(OrderShipping.name);

  constructor(
    private readonly logistics: LogisticsProvider,
    private readonly store: OrderRepository,
    private readonly transitions: OrderTransitions,
  ) {}

  get providerName(): string {
    return this.logistics.name;
  }

  /**
   * Books the parcel (once per order) and moves the PAID order to SHIPPED; a digital order ships without one. `by`
   * is the user acting for the order's seller or an ADMIN (403 for anyone else).
   */
  async ship(orderId: string, by: Principal): Promise<StoredOrder> {
    const order = await this.store.findAsSeller(orderId, by);
    if (order.status !== OrderStatus.PAID) {
      throw codedError('ORDER_STATUS_CONFLICT', `Order ${orderId} is ${order.status}; only PAID orders ship`);
    }
    if (order.refunds?.some(({ cancel, status }) => cancel && status === OrderRefundStatus.PENDING)) {
      throw codedError('ORDER_STATUS_CONFLICT', `Order ${orderId} is being canceled by its buyer; it does not ship`);
    }
    if (order.digital) return this.transitions.move(orderId, OrderStatus.SHIPPED, by.id, { where: NOT_BEING_CANCELED });
    if (!order.shippingAddress)
      throw codedError('SHIPPING_ADDRESS_MISSING', `Order ${orderId} has no shipping address`);
    const parcel = await this.logistics.bookParcel({
      reference: orderId,
      address: order.shippingAddress,
      package: order.packageItem,
    });
    const set = { parcelId: parcel.id };
    return this.transitions.move(orderId, OrderStatus.SHIPPED, by.id, { set, where: NOT_BEING_CANCELED });
  }

  deliver(orderId: string, by: Principal): Promise<StoredOrder> {
    return this.transitions.move(orderId, OrderStatus.DELIVERED, by.id);
  }

  /**
   * A pick-up ships the order its parcel was booked for (the reference); a delivery delivers the order holding
   * that parcel, shipping it first when the pick-up scan never came. The event only names the parcel: the carrier's
   * own record of it must have reached the scan the event claims, and gives the reference. Events the carrier does
   * not confirm (forged, about an unknown parcel) and events that change nothing (replayed, late) are logged.
   */
  @OnDomainEvent('parcel.picked-up')
  @OnDomainEvent('parcel.delivered')
  async follow(event: TrackingEvent): Promise<void> {
    const parcel = await this.parcelKnown(event.data.parcelId);
    if (!parcel || !CONFIRMED_BY[event.type].includes(parcel.status)) {
      const actual = parcel ? `the parcel is ${parcel.status}` : 'the carrier does not know the parcel';
      this.logger.warn(`Ignored tracking event ${event.id} (${event.type} of ${event.data.parcelId}): ${actual}`);
      return;
    }
    const { id: parcelId, reference } = parcel;
    const by = `system:${this.logistics.name}`;
    await this.quietly(event, reference, () =>
      this.transitions.move(reference, OrderStatus.SHIPPED, by, { set: { parcelId } }),
    );
    if (event.type === TrackingEventType.DELIVERED) {
      await this.quietly(event, reference, () =>
        this.transitions.move(reference, OrderStatus.DELIVERED, by, { where: { parcelId } }),
      );
    }
  }

  /** The carrier's record of the parcel; undefined when it has none (other failures propagate, for a retry). */
  private async parcelKnown(parcelId: string): Promise<Parcel | undefined> {
    try {
      return await this.logistics.parcel(parcelId);
    } catch (error) {
      if (error instanceof NotFoundException) return undefined;
      throw error;
    }
  }

  private async quietly(event: TrackingEvent, reference: string, move: () => Promise<unknown>): Promise<void> {
    try {
      await move();
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.logger.warn(`Tracking event ${event.id} for ${reference}: ${error.message}`);
    }
  }
}

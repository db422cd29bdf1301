import { ConflictException, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Principal } from '../../common/principal';
import { LogisticsProvider, TrackingEvent, TrackingEventType } from '../delivery/logistics.provider';
import { TrackingEvents } from '../delivery/tracking-events';
import { isRefusal } from './refusal';
import { OrderStore } from './order-store';
import { OrderTransitions } from './order-transitions';
import { OrderStatus } from './order.schema';
import { StoredOrder } from './order.view';

/** Ships and delivers orders: by an ADMIN, or by the carrier's tracking webhooks. */
@Injectable()
export class OrderShipping implements OnModuleInit {
  private readonly logger = new Logger(OrderShipping.name);

  constructor(
    private readonly logistics: LogisticsProvider,
    private readonly tracking: TrackingEvents,
    private readonly store: OrderStore,
    private readonly transitions: OrderTransitions,
  ) {}

  onModuleInit(): void {
    this.tracking.subscribe((event) => this.follow(event));
  }

  get providerName(): string {
    return this.logistics.name;
  }

  /** Books the parcel (once per order) and moves the PAID order to SHIPPED; a digital order ships without one. */
  async ship(orderId: string, by: Principal): Promise<StoredOrder> {
    const order = await this.store.find(orderId);
    if (order.status !== OrderStatus.PAID) {
      throw new ConflictException(`Order ${orderId} is ${order.status}; only PAID orders ship`);
    }
    if (order.digital) return this.transitions.move(orderId, OrderStatus.SHIPPED, by.id);
    if (!order.shippingAddress) throw new ConflictException(`Order ${orderId} has no shipping address`);
    const parcel = await this.logistics.bookParcel({
      reference: orderId,
      address: order.shippingAddress,
      package: order.packageItem,
    });
    return this.transitions.move(orderId, OrderStatus.SHIPPED, by.id, { set: { parcelId: parcel.id } });
  }

  deliver(orderId: string, by: Principal): Promise<StoredOrder> {
    return this.transitions.move(orderId, OrderStatus.DELIVERED, by.id);
  }

  /**
   * A pick-up ships the order its parcel was booked for (the reference); a delivery delivers the order holding
   * that parcel, shipping it first when the pick-up scan never came. Events that change nothing are logged.
   */
  private async follow(event: TrackingEvent): Promise<void> {
    const { parcelId, reference } = event.data;
    const by = `system:${this.logistics.name}`;
    await this.quietly(event, () =>
      this.transitions.move(reference, OrderStatus.SHIPPED, by, { set: { parcelId } }),
    );
    if (event.type === TrackingEventType.DELIVERED) {
      await this.quietly(event, () =>
        this.transitions.move(reference, OrderStatus.DELIVERED, by, { where: { parcelId } }),
      );
    }
  }

  private async quietly(event: TrackingEvent, move: () => Promise<unknown>): Promise<void> {
    try {
      await move();
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.logger.warn(`Tracking event ${event.id} for ${event.data.reference}: ${error.message}`);
    }
  }
}

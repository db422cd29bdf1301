import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventPublisher } from '../../realtime/event-publisher';
import { TopicAuthorizer } from '../../realtime/auth/topic-authorizer';
import { SellerDirectory } from '../catalogue/seller-directory';
import { OrderStatus } from './order-status';
import { StoredOrder, toOrderView } from './order.view';

/** What a seller hears about live: a new order, a paid one (to ship) and a canceled one. */
const DESK_STATUSES: readonly OrderStatus[] = [OrderStatus.NEW, OrderStatus.PAID, OrderStatus.CANCELED];

export const sellerOrdersTopic = (sellerId: string) => `/topic/seller/${sellerId}/orders`;

/**
 * `/topic/seller/{id}/orders`: the seller's new, paid and canceled orders as `order.status` events with the order.
 * Only the user acting for that seller (and ADMINs) may follow it.
 */
@Injectable()
export class SellerOrderTopic implements OnModuleInit {
  constructor(
    private readonly authorizer: TopicAuthorizer,
    private readonly events: EventPublisher,
    private readonly sellers: SellerDirectory,
  ) {}

  onModuleInit(): void {
    this.authorizer.register('/topic/seller/{id}/orders', async (principal, { id }) => {
      const own = await this.sellers.idActingFor(principal.id);
      return own !== undefined && String(own) === id;
    });
  }

  /**
   * Publishes the order on its seller's topic when it has just become one of {@link DESK_STATUSES}; an entry that
   * repeats the status before it (a partial refund of a PAID order) is no news to the seller.
   */
  announce(order: StoredOrder, status: OrderStatus): void {
    if (!DESK_STATUSES.includes(status) || order.orderTimeLines.at(-2)?.status === status) return;
    const id = String(order._id);
    const data = toOrderView(order);
    this.events.publish(sellerOrdersTopic(order.embeddedVendor.sellerId), { event: 'order.status', id, data });
  }
}

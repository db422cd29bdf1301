import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { OrderTransitions } from './order-transitions';
import { OrderStatus } from './order.schema';
import { StoredOrder } from './order.view';

export const AUTO_APPROVER = 'system:auto-approval';

/**
 * Approval at checkout (issue 18 changes DESIGN §7): a checkout order's stock is reserved already, so its offers are
 * in stock and it is approved at once by `system:auto-approval`, unless `ORDER_APPROVAL=manual` leaves it NEW for an
 * ADMIN's `approve`.
 */
@Injectable()
export class OrderApproval {
  constructor(
    private readonly config: AppConfig,
    private readonly transitions: OrderTransitions,
  ) {}

  /** The orders as they are after approval (unchanged in manual mode). */
  async approveNew(orders: StoredOrder[]): Promise<StoredOrder[]> {
    if (this.config.orderApproval === 'manual') return orders;
    return Promise.all(orders.map((order) => this.approve(order)));
  }

  async approveOne(order: StoredOrder): Promise<StoredOrder> {
    return (await this.approveNew([order]))[0];
  }

  private async approve(order: StoredOrder): Promise<StoredOrder> {
    if (order.status !== OrderStatus.NEW) return order;
    return this.transitions.move(String(order._id), OrderStatus.APPROVED, AUTO_APPROVER);
  }
}

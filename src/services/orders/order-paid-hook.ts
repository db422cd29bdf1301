import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Order } from './order.schema';
import { StoredOrder } from './order.view';

/** Something another module does when an order has been paid (accounting issues the buyer's invoice). */
export type PaidOrderListener = (order: StoredOrder) => Promise<unknown>;

/**
 * The orders module's one hook for other modules: listeners registered here (at module init) run after every move
 * to PAID, on the instance that made the move. The transition awaits them, so a payment's answer (or webhook's)
 * comes after its invoice; a listener's failure is logged and never undoes or fails the payment. The move to PAID
 * marks the order `invoiceDueAt`; the mark is removed once every listener succeeded, and `OrderPaidRetry` runs the
 * listeners again for orders still marked later (a failure, or a process that died). Listeners must therefore be
 * idempotent. Exported by `OrdersModule`, so the listener's module depends on orders and not the other way round.
 */
@Injectable()
export class OrderPaidHook {
  private readonly logger = new Logger(OrderPaidHook.name);
  private readonly listeners: PaidOrderListener[] = [];

  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  onPaid(listener: PaidOrderListener): void {
    this.listeners.push(listener);
  }

  /** Runs every listener; true (and the order's mark removed) when all of them succeeded. */
  async paid(order: StoredOrder): Promise<boolean> {
    let succeeded = true;
    for (const listener of this.listeners) {
      try {
        await listener(order);
      } catch (error) {
        succeeded = false;
        this.logger.error(`A listener failed on paid order ${String(order._id)}: ${(error as Error).message}`);
      }
    }
    if (succeeded) await this.orders.updateOne({ _id: order._id }, { $unset: { invoiceDueAt: 1 } }).exec();
    return succeeded;
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { StoredOrder } from './order.view';

/** Something another module does when an order has been paid (accounting issues the buyer's invoice). */
export type PaidOrderListener = (order: StoredOrder) => Promise<unknown>;

/**
 * The orders module's one hook for other modules: listeners registered here (at module init) run after every move
 * to PAID, on the instance that made the move. The transition awaits them, so a payment's answer (or webhook's)
 * comes after its invoice; a listener's failure is logged and never undoes or fails the payment. Listeners must be
 * idempotent, as a move may be retried elsewhere. Exported by `OrdersModule`, so the listener's module depends on
 * orders and not the other way round.
 */
@Injectable()
export class OrderPaidHook {
  private readonly logger = new Logger(OrderPaidHook.name);
  private readonly listeners: PaidOrderListener[] = [];

  onPaid(listener: PaidOrderListener): void {
    this.listeners.push(listener);
  }

  async paid(order: StoredOrder): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(order);
      } catch (error) {
        this.logger.error(`A listener failed on paid order ${String(order._id)}: ${(error as Error).message}`);
      }
    }
  }
}

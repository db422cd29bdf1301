import { ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { Types } from 'mongoose';
import { Principal } from '../../common/principal';
import { OnDomainEvent } from '../../events/domain-events';
import { StockReservation } from '../catalogue/stock-reservation';
import { CardPaymentProvider, CardRefundEvent, CardRefundEventType, Refund, RefundStatus } from '../payments';
import { BuyerCreditNote } from './buyer-credit-note';
import { OrderRefund, OrderRefundStatus } from './order-parts.schema';
import { OrderRepository } from './order.repository';
import { OrderTransitions } from './order-transitions';
import { OrderStatus } from './order.schema';
import { StoredOrder } from './order.view';
import { planRefund, RequestedUnits, unitsLeft } from './refund-plan';
import { isRefusal } from './refusal';
import { codedError } from '../../common/errors/coded-exception';

const REFUNDABLE = [OrderStatus.PAID, OrderStatus.SHIPPED, OrderStatus.DELIVERED];
const CLAIMED_STATUS: Record<CardRefundEventType, RefundStatus> = {
  [CardRefundEventType.REFUNDED]: RefundStatus.SUCCEEDED,
  [CardRefundEventType.FAILED]: RefundStatus.FAILED,
};
const MAX_ATTEMPTS = 20;

interface RefundAsk {
  items?: RequestedUnits[];
  restock?: boolean;
  cancel: boolean;
  by: string;
}

/**
 * Refunds of paid orders through the card provider. Asking records a PENDING entry in `refunds` (one conditional
 * update on `refundVersion`, so two refunds at once never exceed what was bought) and asks the provider; the order is
 * settled only by the provider's signed webhook, as far as the provider confirms the refund. Settling is again one
 * conditional update: the entry becomes SUCCEEDED and a time line entry with the refund id is appended (status
 * REFUNDED when nothing is left, CANCELED for the buyer's cancellation, else unchanged); its winner alone releases the
 * stock when `restock`, then the order is published.
 */
@Injectable()
export class OrderRefunds {
  private readonly logger = new Logger(OrderRefunds.name);

  constructor(
    private readonly store: OrderRepository,
    private readonly transitions: OrderTransitions,
    private readonly provider: CardPaymentProvider,
    private readonly stock: StockReservation,
    private readonly creditNote: BuyerCreditNote,
  ) {}

  /** `refundOrder`: by an ADMIN, or the user acting for the order's seller (403 for anyone else). */
  async refund(request: { orderId: string } & Omit<RefundAsk, 'cancel' | 'by'>, by: Principal): Promise<StoredOrder> {
    const order = await this.store.findAsSeller(request.orderId, by);
    return this.ask(order, { items: request.items, restock: request.restock, cancel: false, by: by.id });
  }

  /** The buyer's cancellation of a PAID order: everything refunded and restocked, then CANCELED. */
  cancelPaid(order: StoredOrder, buyer: Principal): Promise<StoredOrder> {
    return this.ask(order, { restock: true, cancel: true, by: buyer.id });
  }

  private async ask(found: StoredOrder, ask: RefundAsk): Promise<StoredOrder> {
    let order = found;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (!REFUNDABLE.includes(order.status)) {
        throw codedError(
          'ORDER_STATUS_CONFLICT',
          `Order ${String(order._id)} is ${order.status}; only paid orders are refunded`,
        );
      }
      const intentId = await this.cardPaymentOf(order);
      const entry = this.entryFor(order, ask);
      const unchanged = { status: order.status, refundVersion: versionOf(order) };
      const recorded = await this.store.appendRefund(order._id, unchanged, entry);
      if (recorded) return this.askProvider(recorded, intentId, entry);
      order = await this.store.find(String(order._id));
    }
    throw codedError('CONCURRENT_CHANGE', `Order ${String(found._id)} is changing too often; try again`);
  }

  private entryFor(order: StoredOrder, ask: RefundAsk): OrderRefund {
    const { items, amount } = planRefund(order, ask.items);
    return {
      reference: new Types.ObjectId().toHexString(),
      amount,
      items,
      // Before shipment the goods never left; after, they come back only when the caller says so.
      restock: ask.restock ?? order.status === OrderStatus.PAID,
      cancel: ask.cancel,
      status: OrderRefundStatus.PENDING,
      requestedBy: ask.by,
      requestedAt: new Date(),
    };
  }

  /** The card intent that paid the order; 409 when another provider was paid (it cannot refund through us). */
  private async cardPaymentOf(order: StoredOrder): Promise<string> {
    const intentId = order.paymentIntentId;
    const paidByCard = intentId && (await this.provider.retrieve(intentId).catch(notFoundAsNull));
    if (!intentId || !paidByCard) {
      throw new ConflictException(
        `Order ${String(order._id)} was not paid by card; the alternative payment provider cannot refund, ` +
          'so refund it there directly',
      );
    }
    return intentId;
  }

  private async askProvider(order: StoredOrder, intentId: string, entry: OrderRefund): Promise<StoredOrder> {
    let refund: Refund;
    try {
      refund = await this.provider.refund(intentId, entry.amount, entry.reference);
    } catch (error) {
      await this.store.failPendingRefund(order._id, entry.reference);
      throw error;
    }
    await this.store.recordRefundId(order._id, entry.reference, refund.id);
    return this.store.find(String(order._id));
  }

  /**
   * Asks the provider about every PENDING refund it has answered (with a `refundId`) and settles those it has decided
   * the same way as their webhooks: a safety net for `charge.refunded` events that never arrived. A refund whose
   * webhook came meanwhile is no longer PENDING, so it changes nothing.
   */
  async reconcile(): Promise<void> {
    const pending = await this.store.withPendingRefunds();
    for (const order of pending) {
      for (const entry of order.refunds ?? []) {
        if (entry.status !== OrderRefundStatus.PENDING || !entry.refundId) continue;
        const refund = await this.provider.retrieveRefund(entry.refundId).catch(notFoundAsNull);
        if (refund) await this.settleConfirmed(refund);
      }
    }
  }

  /** Settles an authentic refund event only as far as the provider's own record of the refund confirms it. */
  @OnDomainEvent('refund.succeeded')
  @OnDomainEvent('refund.failed')
  async settleEvent(event: CardRefundEvent): Promise<void> {
    const refund = await this.provider.retrieveRefund(event.data.id).catch(notFoundAsNull);
    if (refund?.status !== CLAIMED_STATUS[event.type]) {
      const actual = refund ? `the refund is ${refund.status}` : 'the provider does not know the refund';
      this.logger.warn(`Ignored card event ${event.id} (${event.type} of ${event.data.id}): ${actual}`);
      return;
    }
    await this.settleConfirmed(refund);
  }

  /** Applies the provider's own record of a decided refund to its order's PENDING entry (else a logged no-op). */
  private async settleConfirmed(refund: Refund): Promise<void> {
    if (refund.status === RefundStatus.FAILED) {
      await this.store.failPendingRefund(new Types.ObjectId(refund.orderId), refund.reference);
      return;
    }
    try {
      await this.settle(refund);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.logger.warn(`Refund ${refund.id} not applied to order ${refund.orderId}: ${error.message}`);
    }
  }

  /** Only a PENDING entry of the same reference, amount and intent is settled: a replay or late event changes nothing. */
  private async settle(refund: Refund): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const order = await this.store.find(refund.orderId);
      const entry = (order.refunds ?? []).find((one) => one.reference === refund.reference);
      if (entry?.status !== OrderRefundStatus.PENDING || entry.amount !== refund.amount) {
        throw new ConflictException(`it matches no pending refund of the order`);
      }
      const settledAt = new Date();
      const settled = await this.transitions.moveFrom(
        refund.orderId,
        order.status,
        statusAfter(order, entry),
        `system:${this.provider.name}`,
        {
          where: {
            paymentIntentId: refund.paymentIntentId,
            refundVersion: versionOf(order),
            refunds: { $elemMatch: { reference: refund.reference, status: OrderRefundStatus.PENDING } },
          },
          // The whole entry at once: the embedded database refuses two positional paths of one array element.
          set: {
            'refunds.$': { ...entry, status: OrderRefundStatus.SUCCEEDED, refundId: refund.id, settledAt },
            // Owing the credit note is recorded with the settlement: if this process dies before issuing it, a sweep does.
            creditNoteDueAt: settledAt,
          },
          also: { $inc: { refundVersion: 1 } },
          entry: { refundId: refund.id },
          effects: async (moved) => {
            await stockAfterRefund(this.stock, order, entry);
            const settledEntry = moved.refunds?.find((one) => one.reference === entry.reference) ?? entry;
            await this.creditNote.issueSafely(moved, settledEntry);
          },
        },
      );
      if (settled) return;
    }
    throw codedError('CONCURRENT_CHANGE', `Order ${refund.orderId} is changing too often`);
  }
}

/**
 * Before shipping, refunded units stop being reserved: back for sale with `restock`, else off hand (the seller keeps
 * them out of sale), so the shipment takes only what is left (`unitsToShip`). After shipping they come back on hand
 * only with `restock`.
 */
function stockAfterRefund(stock: StockReservation, order: StoredOrder, entry: OrderRefund): Promise<void> {
  const shipped = [OrderStatus.SHIPPED, OrderStatus.DELIVERED].includes(order.status);
  if (shipped) return entry.restock ? stock.returnGoods(entry.items) : Promise.resolve();
  return entry.restock ? stock.release(entry.items) : stock.dispatch(entry.items);
}

/** REFUNDED once every unit is refunded (CANCELED when it was the buyer's cancellation of a PAID order). */
function statusAfter(order: StoredOrder, settling: OrderRefund): OrderStatus {
  const left = unitsLeft(order, [OrderRefundStatus.SUCCEEDED]);
  settling.items.forEach((item) => left.set(String(item.sellerSku), left.get(String(item.sellerSku))! - item.quantity));
  if ([...left.values()].some((units) => units > 0)) return order.status;
  return settling.cancel && order.status === OrderStatus.PAID ? OrderStatus.CANCELED : OrderStatus.REFUNDED;
}

/** Orders stored before refunds existed have no `refundVersion`: it counts as 0. */
function versionOf(order: StoredOrder): unknown {
  const version = order.refundVersion ?? 0;
  return version === 0 ? { $in: [0, null] } : version;
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof NotFoundException) return null;
  throw error;
}

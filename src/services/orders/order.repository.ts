import { ForbiddenException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types, UpdateQuery } from 'mongoose';
import { isObjectIdHex, toObjectId } from '../../common/mongo/object-id';
import { hasRole, Principal, Role } from '../../common/principal';
import { Order, OrderRefund, OrderStatus, OrderTimeLine } from './order.schema';
import { OrderRefundStatus } from './order-parts.schema';
import { UNPAID } from './order-status';
import type { OrderDraft } from './order-drafts';
import { StoredOrder } from './order.view';
import { codedError } from '../../common/errors/coded-exception';

/** A compare-and-set of an order's status: the filter and update of {@link OrderRepository.moveStatus}. */
export interface StatusMove {
  /** More conditions the order must meet besides its status (e.g. the payment it waits for). */
  where?: Record<string, unknown>;
  /** Fields set with the status. */
  set: Record<string, unknown>;
  /** Other operators of the same update (e.g. `$inc`). */
  also?: Omit<UpdateQuery<Order>, '$set' | '$push'>;
  /** The time line entry pushed with the move. */
  entry: OrderTimeLine;
}

/**
 * The marks of work an order still owes, each set in the same update as the fact that owes it and removed once it
 * is done: `invoiceDueAt` (the `order.paid` listeners: invoice, paid mails), `creditNoteDueAt` (a settled refund's
 * credit note).
 */
export type DueMark = 'invoiceDueAt' | 'creditNoteDueAt';

/** An order owing the work of a mark since `at`. */
export interface DueOrder {
  _id: Types.ObjectId;
  at: Date;
}

/** What a refund request must find unchanged: the order's status and its refund version (a filter value). */
export interface RefundGuard {
  status: OrderStatus;
  refundVersion: unknown;
}

/**
 * The only code that writes the `orders` collection (checked by `test/architecture/collection-writers.spec.ts`); services ask
 * it by intent (`recordPaymentIntent`, `moveStatus`, ...) instead of sending raw updates, so every way an order can
 * change is listed here. It also reads orders and decides whose they are: a USER sees their own, an ADMIN everyone's.
 *
 * Named `OrderRepository` in `order.repository.ts` like the folder's other role files (`order.schema.ts`,
 * `order.dto.ts`, `order.view.ts`) and like the bean the API describes it as (`getOrderRepository`).
 *
 * Conditional writes keep the filters their callers relied on (compare-and-set on the status, the subtotal, the
 * refund version, the retry lease): they return null or false when the order changed meanwhile, and the caller
 * decides whether to read again, retry or refuse.
 */
@Injectable()
export class OrderRepository {
  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  /** 400 for a malformed id, 404 for an unknown one. */
  async find(orderId: string): Promise<StoredOrder> {
    const order = await this.orders.findById(toObjectId(orderId, 'orderId')).lean<StoredOrder>().exec();
    if (!order) throw codedError('ORDER_NOT_FOUND', `Order ${orderId} not found`);
    return order;
  }

  /** The order if `principal` bought it or is an ADMIN; 403 for another buyer's order. */
  async findOwn(orderId: string, principal: Principal): Promise<StoredOrder> {
    const order = await this.find(orderId);
    if (!isAdmin(principal) && order.embeddedBuyer.userId !== principal.id) {
      throw new ForbiddenException('You may only act on your own orders');
    }
    return order;
  }

  /** The order if `principal` acts for its seller or is an ADMIN; 403 for anyone else. */
  async findAsSeller(orderId: string, principal: Principal): Promise<StoredOrder> {
    const order = await this.find(orderId);
    if (!isAdmin(principal) && order.embeddedVendor.userId !== principal.id) {
      throw new ForbiddenException("Only the order's seller or an ADMIN may do this");
    }
    return order;
  }

  /** The buyer's orders, newest first. */
  ofBuyer(buyerId: string): Promise<StoredOrder[]> {
    return this.list({ 'embeddedBuyer.userId': buyerId });
  }

  /** The orders of `ids` that `principal` may see (any for an ADMIN); others and malformed ids are left out. */
  visible(principal: Principal, ids: string[]): Promise<StoredOrder[]> {
    const filter: Record<string, unknown> = { _id: { $in: ids.filter(isObjectIdHex) } };
    if (!isAdmin(principal)) filter['embeddedBuyer.userId'] = principal.id;
    return this.list(filter);
  }

  private list(filter: Record<string, unknown>): Promise<StoredOrder[]> {
    return this.orders.find(filter).sort({ createdAt: -1, _id: -1 }).lean<StoredOrder[]>().exec();
  }

  /** Whether `userId` is the order's buyer or acts for its seller (topic subscriptions). */
  async isParty(orderId: string, userId: string): Promise<boolean> {
    if (!isObjectIdHex(orderId)) return false;
    const filter = { _id: orderId, $or: [{ 'embeddedBuyer.userId': userId }, { 'embeddedVendor.userId': userId }] };
    return Boolean(await this.orders.exists(filter).exec());
  }

  /** Up to `limit` orders owing what `mark` stands for since before `cutoff`, oldest mark first (the retry sweeps). */
  dueFor(mark: DueMark, cutoff: Date, limit: number): Promise<DueOrder[]> {
    return this.orders
      .find({ [mark]: { $lt: cutoff } }, { _id: 1, [mark]: 1 })
      .sort({ [mark]: 1 })
      .limit(limit)
      .lean<Record<string, unknown>[]>()
      .exec()
      .then((rows) => rows.map((row) => ({ _id: row._id as Types.ObjectId, at: row[mark] as Date })));
  }

  /** Up to `limit` unpaid orders created before `cutoff`, oldest first, with only their ids (the expiry sweep). */
  unpaidCreatedBefore(cutoff: Date, limit: number): Promise<{ _id: Types.ObjectId }[]> {
    return this.orders
      .find({ status: { $in: UNPAID }, createdAt: { $lt: cutoff } }, { _id: 1 })
      .sort({ createdAt: 1 })
      .limit(limit)
      .lean<{ _id: Types.ObjectId }[]>()
      .exec();
  }

  /**
   * Up to `limit` PAYMENT_PENDING orders waiting for a known payment and unchanged since before `cutoff`, least
   * recently changed first, with their payment ids (the expiry sweep).
   */
  pendingUnchangedBefore(cutoff: Date, limit: number): Promise<{ _id: Types.ObjectId; paymentIntentId: string }[]> {
    const filter = {
      status: OrderStatus.PAYMENT_PENDING,
      updatedAt: { $lt: cutoff },
      paymentIntentId: { $exists: true },
    };
    return this.orders
      .find(filter, { _id: 1, paymentIntentId: 1 })
      .sort({ updatedAt: 1 })
      .limit(limit)
      .lean<{ _id: Types.ObjectId; paymentIntentId: string }[]>()
      .exec();
  }

  /** The PAYMENT_PENDING orders that wait for a known payment, with only its id. */
  awaitingPayment(): Promise<Pick<StoredOrder, '_id' | 'paymentIntentId'>[]> {
    const filter = { status: OrderStatus.PAYMENT_PENDING, paymentIntentId: { $exists: true } };
    return this.orders
      .find(filter, { paymentIntentId: 1 })
      .lean<Pick<StoredOrder, '_id' | 'paymentIntentId'>[]>()
      .exec();
  }

  /** The orders with a PENDING refund, with only their refunds. */
  withPendingRefunds(): Promise<Pick<StoredOrder, '_id' | 'refunds'>[]> {
    return this.orders
      .find({ 'refunds.status': OrderRefundStatus.PENDING }, { refunds: 1 })
      .lean<Pick<StoredOrder, '_id' | 'refunds'>[]>()
      .exec();
  }

  /** The orders of `ids`, unknown ones left out (the ids must be valid). */
  findMany(ids: string[]): Promise<StoredOrder[]> {
    return this.orders
      .find({ _id: { $in: ids } })
      .lean<StoredOrder[]>()
      .exec();
  }

  /** Stores the drafts of one checkout together (all or none, as `insertMany` orders them). */
  async insertDrafts(drafts: OrderDraft[]): Promise<StoredOrder[]> {
    return (await this.orders.insertMany(drafts)).map((order) => order.toObject<StoredOrder>());
  }

  /**
   * Compare-and-set of the status: moves the order from `from` (a status or a filter on it) while `move.where` still
   * holds, pushing the time line entry; the order after the move, or null when it did not match.
   */
  moveStatus(orderId: string, from: unknown, move: StatusMove): Promise<StoredOrder | null> {
    const filter: Record<string, unknown> = { _id: String(orderId), status: from, ...move.where };
    return this.orders
      .findOneAndUpdate(
        filter,
        { ...move.also, $set: move.set, $push: { orderTimeLines: move.entry } },
        { returnDocument: 'after' },
      )
      .lean<StoredOrder>()
      .exec();
  }

  /**
   * Sets what paying needs (address, amounts, ...) while the order is unpaid and its subtotal, which the amounts were
   * computed from, unchanged (an ADMIN may remove a line meanwhile); the order after, or null.
   */
  preparePayment(order: StoredOrder, set: Record<string, unknown>): Promise<StoredOrder | null> {
    return this.orders
      .findOneAndUpdate(
        { _id: order._id, status: { $in: UNPAID }, subtotal: order.subtotal },
        { $set: set },
        { returnDocument: 'after' },
      )
      .lean<StoredOrder>()
      .exec();
  }

  /** The pending order now waits for the provider's decision on `paymentId`. */
  async recordPaymentIntent(orderId: Types.ObjectId, paymentId: string): Promise<void> {
    await this.orders.updateOne({ _id: orderId }, { $set: { paymentIntentId: paymentId } }).exec();
  }

  /** Sets an ADMIN's details while the order keeps the status read; false when it changed meanwhile. */
  async updateDetails(order: StoredOrder, set: Partial<Order>): Promise<boolean> {
    const updated = await this.orders.updateOne({ _id: order._id, status: order.status }, { $set: set }).exec();
    return updated.matchedCount === 1;
  }

  /**
   * Removes the line `itemId` and sets the new amounts while the order keeps its status and subtotal; false when it
   * changed meanwhile.
   */
  async removeLine(order: StoredOrder, itemId: Types.ObjectId, amounts: Partial<Order>): Promise<boolean> {
    const removed = await this.orders
      .updateOne(
        { _id: order._id, status: order.status, subtotal: order.subtotal, 'commerceItems._id': itemId },
        { $pull: { commerceItems: { _id: itemId } }, $set: amounts },
      )
      .exec();
    return removed.modifiedCount === 1;
  }

  /** Deletes the order while it keeps the status read; false when it changed meanwhile. */
  async removeAtStatus(order: StoredOrder): Promise<boolean> {
    const removed = await this.orders.deleteOne({ _id: order._id, status: order.status }).exec();
    return removed.deletedCount === 1;
  }

  /** Removes the mark: every `order.paid` listener succeeded. */
  async clearInvoiceDue(orderId: Types.ObjectId): Promise<void> {
    await this.orders.updateOne({ _id: orderId }, { $unset: { invoiceDueAt: 1 } }).exec();
  }

  /**
   * Removes the credit-note mark while it is still `at` (the notes owed then are issued); a refund settled meanwhile
   * set a newer mark, which stays for its own note.
   */
  async clearCreditNoteDue(orderId: Types.ObjectId, at: Date): Promise<void> {
    await this.orders.updateOne({ _id: orderId, creditNoteDueAt: at }, { $unset: { creditNoteDueAt: 1 } }).exec();
  }

  /**
   * A lease on a retry: moves the order's `mark` from the value `seen` to `now`, so only one instance wins; the order
   * after, or null when another instance claimed it first.
   */
  claimDue(mark: DueMark, seen: DueOrder, now: Date): Promise<StoredOrder | null> {
    return this.orders
      .findOneAndUpdate({ _id: seen._id, [mark]: seen.at }, { $set: { [mark]: now } }, { returnDocument: 'after' })
      .lean<StoredOrder>()
      .exec();
  }

  /**
   * Appends a refund request while the order keeps its status and refund version (bumped here); the order after, or
   * null when it changed meanwhile.
   */
  appendRefund(orderId: Types.ObjectId, guard: RefundGuard, entry: OrderRefund): Promise<StoredOrder | null> {
    const unchanged: Record<string, unknown> = {
      _id: orderId,
      status: guard.status,
      refundVersion: guard.refundVersion,
    };
    return this.orders
      .findOneAndUpdate(
        unchanged,
        { $push: { refunds: entry }, $inc: { refundVersion: 1 } },
        { returnDocument: 'after' },
      )
      .lean<StoredOrder>()
      .exec();
  }

  /** Records the provider's id of the refund entry `reference`. */
  async recordRefundId(orderId: Types.ObjectId, reference: string, refundId: string): Promise<void> {
    const inEntry = { _id: orderId, 'refunds.reference': reference };
    await this.orders.updateOne(inEntry, { $set: { 'refunds.$.refundId': refundId } }).exec();
  }

  /** Marks the refund entry `reference` FAILED if it is still PENDING (the provider refused it); bumps the version. */
  async failPendingRefund(orderId: Types.ObjectId, reference: string): Promise<void> {
    const order = await this.orders.findById(orderId).lean<StoredOrder>().exec();
    const entry = order?.refunds?.find((one) => one.reference === reference);
    if (!entry) return;
    await this.orders
      .updateOne(
        { _id: orderId, refunds: { $elemMatch: { reference, status: OrderRefundStatus.PENDING } } },
        {
          $set: { 'refunds.$': { ...entry, status: OrderRefundStatus.FAILED, settledAt: new Date() } },
          $inc: { refundVersion: 1 },
        },
      )
      .exec();
  }
}

export function isAdmin(principal: Principal): boolean {
  return hasRole(principal.role, Role.ADMIN);
}

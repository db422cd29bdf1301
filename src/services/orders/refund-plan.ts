import { BadRequestException } from '@nestjs/common';
import { Types } from 'mongoose';
import { amounts } from './order-drafts';
import { OrderRefund, OrderRefundStatus, RefundedItem } from './order-parts.schema';
import { StoredOrder } from './order.view';
import { codedError } from '../../common/errors/coded-exception';

export interface RequestedUnits {
  sellerSkuId: string;
  quantity: number;
}

export interface RefundPlan {
  items: RefundedItem[];
  amount: number;
}

/**
 * What a refund of `requested` units (all that is left without) gives back, in integer minor units: the units'
 * subtotal plus the buyer's tax on it, and exactly what is left of the total when it refunds the last units (so
 * rounding never leaves or takes a cent). 400 for a line the order does not have, 409 for more than is left.
 */
export function planRefund(order: StoredOrder, requested?: RequestedUnits[]): RefundPlan {
  const left = unitsLeft(order, [OrderRefundStatus.PENDING, OrderRefundStatus.SUCCEEDED]);
  const items = requested ? wanted(order, requested, left) : [...left].map(toItem).filter((i) => i.quantity > 0);
  if (items.length === 0)
    throw codedError('NOTHING_TO_REFUND', `Order ${String(order._id)} has nothing left to refund`);
  const amountLeft = order.total - refundedAmount(order);
  const lastUnits = items.reduce((sum, item) => sum + item.quantity, 0) === sum(left.values());
  if (lastUnits) return { items, amount: amountLeft };
  const subtotal = items.reduce((total, item) => total + unitPrice(order, item.sellerSku) * item.quantity, 0);
  return { items, amount: Math.min(amounts(subtotal, order.buyerTaxRate).total, amountLeft) };
}

/** Units per seller SKU bought and not refunded by refunds in `counted` statuses. */
export function unitsLeft(order: StoredOrder, counted: OrderRefundStatus[]): Map<string, number> {
  const left = new Map<string, number>();
  for (const item of order.commerceItems) {
    left.set(String(item.sellerSku), (left.get(String(item.sellerSku)) ?? 0) + item.quantity);
  }
  for (const refund of refundsIn(order, counted)) {
    for (const item of refund.items)
      left.set(String(item.sellerSku), left.get(String(item.sellerSku))! - item.quantity);
  }
  return left;
}

function wanted(order: StoredOrder, requested: RequestedUnits[], left: Map<string, number>): RefundedItem[] {
  const merged = new Map<string, number>();
  for (const { sellerSkuId, quantity } of requested) merged.set(sellerSkuId, (merged.get(sellerSkuId) ?? 0) + quantity);
  return [...merged].map(([sellerSkuId, quantity]) => {
    const available = left.get(sellerSkuId);
    if (available === undefined) {
      throw new BadRequestException(`Seller SKU ${sellerSkuId} is not in order ${String(order._id)}`);
    }
    if (quantity > available) {
      throw codedError(
        'NOTHING_TO_REFUND',
        `Only ${available} of seller SKU ${sellerSkuId} are left to refund, not ${quantity}`,
      );
    }
    return toItem([sellerSkuId, quantity]);
  });
}

function refundsIn(order: StoredOrder, statuses: OrderRefundStatus[]): OrderRefund[] {
  return (order.refunds ?? []).filter((refund) => statuses.includes(refund.status));
}

function refundedAmount(order: StoredOrder): number {
  const counted = refundsIn(order, [OrderRefundStatus.PENDING, OrderRefundStatus.SUCCEEDED]);
  return counted.reduce((total, refund) => total + refund.amount, 0);
}

function unitPrice(order: StoredOrder, sellerSku: Types.ObjectId): number {
  return order.commerceItems.find((item) => String(item.sellerSku) === String(sellerSku))!.unitPrice;
}

function toItem([sellerSkuId, quantity]: [string, number]): RefundedItem {
  return { sellerSku: new Types.ObjectId(sellerSkuId), quantity };
}

function sum(values: Iterable<number>): number {
  return [...values].reduce((total, value) => total + value, 0);
}

/**
 * The units a shipment takes off hand: those bought and not refunded yet. Refunds settled before shipping already
 * gave theirs back for sale (`restock`) or took them off hand (without), so none of them is still reserved.
 */
export function unitsToShip(order: StoredOrder): RefundedItem[] {
  return [...unitsLeft(order, [OrderRefundStatus.SUCCEEDED])].map(toItem).filter((item) => item.quantity > 0);
}

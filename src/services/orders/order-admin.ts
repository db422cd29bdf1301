import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { isValidObjectId } from 'mongoose';
import { EventPublisher } from '../../realtime/event-publisher';
import { Principal } from '../../common/principal';
import { amounts } from './order-drafts';
import { OrderCancellation, stockOf } from './order-cancellation';
import { OrderPlacement } from './order-placement';
import { OrderRepository } from './order.repository';
import { OrderTransitions } from './order-transitions';
import { UNPAID } from './order-status';
import { Order, OrderStatus } from './order.schema';
import { StoredOrder } from './order.view';
import { OrderDto } from './order.dto';
import { StockReservation } from '../catalogue/stock-reservation';
import { codedError } from '../../common/errors/coded-exception';

/** Status changes `saveOrder` makes; payment, shipping and delivery have their own methods. */
const SAVEABLE = [OrderStatus.APPROVED, OrderStatus.CANCELED];
const MAX_ATTEMPTS = 20;

/** ADMIN work on orders: create, change, cancel, remove. */
@Injectable()
export class OrderAdmin {
  constructor(
    private readonly store: OrderRepository,
    private readonly placement: OrderPlacement,
    private readonly transitions: OrderTransitions,
    private readonly stock: StockReservation,
    private readonly events: EventPublisher,
    private readonly cancellation: OrderCancellation,
  ) {}

  /** A NEW order for `embeddedBuyer` of `commerceItems` (one seller and currency), stock reserved. */
  async create(dto: OrderDto, admin: Principal): Promise<StoredOrder> {
    if (!dto.embeddedBuyer || !dto.commerceItems) {
      throw new BadRequestException('A new order needs embeddedBuyer and commerceItems');
    }
    const items = dto.commerceItems.map(({ sellerSkuId, quantity = 1 }) => ({ sellerSkuId, quantity }));
    const [order] = await this.placement.place(items, {
      buyer: { ...dto.embeddedBuyer },
      by: admin.id,
      digital: false,
      single: true,
      shippingAddress: dto.shippingAddress,
      contactProfileId: dto.contactProfileId,
      paymentMethodId: dto.paymentMethodId,
      rates: { sellerTaxRate: dto.sellerTaxRate, buyerTaxRate: dto.buyerTaxRate, serviceTaxRate: dto.serviceTaxRate },
    });
    return order;
  }

  /**
   * Changes the order's details, then its status (APPROVED or CANCELED only, as a legal transition). Tax rates
   * change only while unpaid, and recompute the amounts. Items are changed by `removeCommerceItem`.
   */
  async save(dto: OrderDto, admin: Principal): Promise<StoredOrder> {
    if (!dto.id) return this.create(dto, admin);
    const order = await this.store.find(dto.id);
    await this.applyDetails(order, dto);
    if (dto.status && dto.status !== order.status) await this.changeStatus(order, dto.status, admin);
    return this.store.find(dto.id);
  }

  /** Unpaid orders give their stock back; an order whose payment is under way cannot be removed (409). */
  async remove(orderId: string): Promise<void> {
    const order = await this.store.find(orderId);
    await this.removeFound(order);
  }

  /** Unknown ids are skipped; nothing is removed when one of the orders is being paid (409). */
  async removeAll(orderIds: string[]): Promise<void> {
    const ids = orderIds.filter((id) => isValidObjectId(id));
    const found = await this.store.findMany(ids);
    found.forEach(assertRemovable);
    for (const order of found) await this.removeFound(order);
  }

  /**
   * Removes a line of an unpaid order (NEW, APPROVED or PAYMENT_FAILED: checkout approves at once), giving its stock
   * back; false when there is no such line, 409 for the last one and while the order is being charged or paid.
   */
  async removeItem(orderId: string, itemId: string): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const order = await this.store.find(orderId);
      if (!UNPAID.includes(order.status)) {
        throw codedError(
          'ORDER_STATUS_CONFLICT',
          `Order ${orderId} is ${order.status}; only unpaid orders change items`,
        );
      }
      const item = order.commerceItems.find((line) => String(line._id) === String(itemId));
      if (!item) return false;
      if (order.commerceItems.length === 1) {
        throw new ConflictException(`Order ${orderId} would have no items left; remove the order instead`);
      }
      const subtotal = order.subtotal - item.total;
      const newAmounts = amounts(subtotal, order.buyerTaxRate, order.shipping?.amount);
      if (await this.store.removeLine(order, item._id, newAmounts)) {
        await this.stock.release([{ sellerSku: item.sellerSku, quantity: item.quantity }]);
        return true;
      }
    }
    throw codedError('CONCURRENT_CHANGE', `Order ${orderId} is changing too often; try again`);
  }

  private async applyDetails(order: StoredOrder, dto: OrderDto): Promise<void> {
    const set = detailsOf(dto);
    const rates = ratesOf(dto);
    if (Object.keys(rates).length > 0) {
      if (!UNPAID.includes(order.status)) {
        throw codedError(
          'ORDER_STATUS_CONFLICT',
          `Order ${String(order._id)} is ${order.status}; its tax rates are fixed`,
        );
      }
      const buyerTaxRate = rates.buyerTaxRate ?? order.buyerTaxRate;
      Object.assign(set, rates, amounts(order.subtotal, buyerTaxRate, order.shipping?.amount));
    }
    if (Object.keys(set).length === 0) return;
    if (!(await this.store.updateDetails(order, set))) throw changedMeanwhile(order);
  }

  private async changeStatus(order: StoredOrder, status: OrderStatus, admin: Principal): Promise<void> {
    if (!SAVEABLE.includes(status)) {
      throw new ConflictException(`saveOrder sets APPROVED or CANCELED; use pay, ship or deliver for ${status}`);
    }
    // A paid order is canceled only through its refund (cancelOrder).
    if (status === OrderStatus.CANCELED) await this.cancellation.cancelUnpaid(String(order._id), admin.id);
    else await this.transitions.move(String(order._id), status, admin.id);
  }

  private async removeFound(order: StoredOrder): Promise<void> {
    assertRemovable(order);
    if (!(await this.store.removeAtStatus(order))) throw changedMeanwhile(order);
    if (UNPAID.includes(order.status)) await this.stock.release(stockOf(order));
    const id = String(order._id);
    this.events.publish(`/topic/order/${id}`, { event: 'order.removed', id, data: null });
  }
}

function changedMeanwhile(order: StoredOrder): ConflictException {
  return codedError('CONCURRENT_CHANGE', `Order ${String(order._id)} changed meanwhile; try again`);
}

function assertRemovable(order: StoredOrder): void {
  if (order.status === OrderStatus.PAYMENT_PENDING) {
    throw codedError('ORDER_STATUS_CONFLICT', `Order ${String(order._id)} is being paid; it cannot be removed now`);
  }
}

function detailsOf(dto: OrderDto): Partial<Order> {
  const { contactProfileId, currencySymbol, packageItem, shippingAddress, paymentMethodId, payoutId } = dto;
  const details = { contactProfileId, currencySymbol, packageItem, shippingAddress, paymentMethodId, payoutId };
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined));
}

function ratesOf(dto: OrderDto): Partial<Pick<Order, 'sellerTaxRate' | 'buyerTaxRate' | 'serviceTaxRate'>> {
  const { sellerTaxRate, buyerTaxRate, serviceTaxRate } = dto;
  const rates = { sellerTaxRate, buyerTaxRate, serviceTaxRate };
  return Object.fromEntries(Object.entries(rates).filter(([, value]) => value !== undefined));
}

import { ForbiddenException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { isObjectIdHex, toObjectId } from '../../common/mongo/object-id';
import { hasRole, Principal, Role } from '../../common/principal';
import { Order } from './order.schema';
import { StoredOrder } from './order.view';
import { codedError } from '../../common/errors/coded-exception';

/** Reads orders, and decides whose they are: a USER sees their own, an ADMIN everyone's. */
@Injectable()
export class OrderStore {
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
}

export function isAdmin(principal: Principal): boolean {
  return hasRole(principal.role, Role.ADMIN);
}

import { ForbiddenException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, QueryFilter } from 'mongoose';
import { Principal } from '../../common/principal';
import { SellerDirectory } from '../catalogue/seller-directory';
import { isAdmin, OrderRepository } from './order.repository';
import { Order } from './order.schema';
import { StoredOrder } from './order.view';
import { SellerOrdersRequestDto } from './seller-orders.dto';
import { actingSeller } from './seller-scope';

export interface SellerOrdersPage {
  content: StoredOrder[];
  total: number;
}

/**
 * The seller's order desk: the orders of the seller a user acts for (`Seller.userId`), found by the order's
 * `embeddedVendor.sellerId` on the `{embeddedVendor.sellerId, createdAt}` index. An ADMIN reads any seller's.
 */
@Injectable()
export class SellerOrderDesk {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly store: OrderRepository,
    private readonly sellers: SellerDirectory,
  ) {}

  /** 404 when a USER acts for no seller, 403 for another seller's id, 400 for an ADMIN naming no seller. */
  async list(request: SellerOrdersRequestDto, principal: Principal): Promise<SellerOrdersPage> {
    const sellerId = await actingSeller(this.sellers, principal, request.sellerId);
    const filter = filterOf(sellerId, request);
    const [content, total] = await Promise.all([
      this.orders
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .skip(request.page * request.size)
        .limit(request.size)
        .lean<StoredOrder[]>()
        .exec(),
      this.orders.countDocuments(filter).exec(),
    ]);
    return { content, total };
  }

  /** The order if it is the caller's seller's (any for an ADMIN): 400 malformed id, 404 unknown, 403 another's. */
  async open(orderId: string, principal: Principal): Promise<StoredOrder> {
    const order = await this.store.find(orderId);
    if (isAdmin(principal)) return order;
    const own = await this.sellers.idActingFor(principal.id);
    if (!own || String(own) !== order.embeddedVendor.sellerId) {
      throw new ForbiddenException("Only the order's seller or an ADMIN may open it");
    }
    return order;
  }
}

function filterOf(sellerId: string, request: SellerOrdersRequestDto): QueryFilter<Order> {
  const filter: Record<string, unknown> = { 'embeddedVendor.sellerId': sellerId };
  if (request.status?.length) filter.status = { $in: request.status };
  const createdAt: Record<string, Date> = {};
  if (request.from) createdAt.$gte = new Date(request.from);
  if (request.to) createdAt.$lt = new Date(request.to);
  if (Object.keys(createdAt).length > 0) filter.createdAt = createdAt;
  return filter;
}

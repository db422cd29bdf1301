import { Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Principal } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { Seller } from '../catalogue/seller.schema';

export interface ConnectOwner {
  ownerKey: string;
  userId: string;
  sellerId?: string;
  principal: Principal;
}

/**
 * Whose connect account the argument-less methods mean: the seller the logged-in user acts for (`Seller.userId`),
 * else the user's own account (an admin acting for the marketplace itself).
 */
@Injectable()
export class ConnectOwners {
  constructor(@InjectModel(Seller.name) private readonly sellers: Model<Seller>) {}

  async current(): Promise<ConnectOwner> {
    const principal = RequestContext.principal();
    if (!principal) throw new UnauthorizedException();
    const seller = await this.sellers.findOne({ userId: principal.id }, { _id: 1 }).lean().exec();
    const sellerId = seller ? String(seller._id) : undefined;
    const ownerKey = sellerId ? `seller:${sellerId}` : `user:${principal.id}`;
    return { ownerKey, userId: principal.id, sellerId, principal };
  }
}

import { Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { Principal } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { SellerDirectory } from '../catalogue/seller-directory';

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
  constructor(private readonly sellers: SellerDirectory) {}

  async current(): Promise<ConnectOwner> {
    const principal = RequestContext.principal();
    if (!principal) throw new UnauthorizedException();
    const seller = await this.sellers.idActingFor(principal.id);
    const sellerId = seller ? String(seller) : undefined;
    const ownerKey = sellerId ? `seller:${sellerId}` : `user:${principal.id}`;
    return { ownerKey, userId: principal.id, sellerId, principal };
  }

  /** The seller the logged-in user acts for; 404 for a user who acts for none (as the seller's offers answer). */
  async currentSeller(): Promise<ConnectOwner & { sellerId: string }> {
    const owner = await this.current();
    const { sellerId } = owner;
    if (sellerId === undefined) throw new NotFoundException('You act for no seller');
    return { ...owner, sellerId };
  }
}

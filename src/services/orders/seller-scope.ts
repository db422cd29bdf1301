import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { Principal } from '../../common/principal';
import { SellerDirectory } from '../catalogue/seller-directory';
import { isAdmin } from './order.repository';

/**
 * The seller a seller-scoped call acts for: a USER's own (`Seller.userId`; 404 when none, 403 when `requested`
 * names another), any existing seller an ADMIN names (404 unknown; without one, the ADMIN's own, else 400).
 */
export async function actingSeller(
  sellers: SellerDirectory,
  principal: Principal,
  requested?: string,
): Promise<string> {
  const own = await sellers.idActingFor(principal.id);
  if (isAdmin(principal)) {
    const sellerId = requested ?? (own && String(own));
    if (!sellerId) throw new BadRequestException('sellerId is required for an ADMIN who acts for no seller');
    return String((await sellers.get(sellerId))._id);
  }
  if (!own) throw new NotFoundException('You act for no seller');
  if (requested !== undefined && requested !== String(own)) {
    throw new ForbiddenException('You may only act for your own seller');
  }
  return String(own);
}

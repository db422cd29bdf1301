import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { hasRole, Principal, Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';

/** The authenticated caller of the current request; 401 for a GUEST. */
export function requireCaller(): Principal {
  const principal = RequestContext.principal();
  if (!principal) throw new UnauthorizedException('Authentication required');
  return principal;
}

export function isAdmin(principal: Principal | null): boolean {
  return principal !== null && hasRole(principal.role, Role.ADMIN);
}

/** A USER may act only on what they own; an ADMIN on anything (403 otherwise). */
export function assertOwnerOrAdmin(principal: Principal, ownerId: string | undefined): void {
  if (!isAdmin(principal) && principal.id !== ownerId) {
    throw new ForbiddenException('You may only act on your own data');
  }
}

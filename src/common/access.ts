import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { hasRole, Principal, Role } from './principal';

/**
 * Throws unless `principal` may act at level `required`: no principal where one is needed → 401,
 * a principal whose role is too low → 403.
 */
export function assertAccess(principal: Principal | null, required: Role): void {
  if (required === Role.GUEST) return;
  if (!principal) throw new UnauthorizedException('Authentication required');
  if (!hasRole(principal.role, required)) throw new ForbiddenException(`Requires role ${required}`);
}

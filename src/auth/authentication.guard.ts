import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { assertAccess } from '../common/access';
import { Principal } from '../common/principal';
import { SessionAuthenticator } from './auth-hooks';
import { AuthenticatedRequest } from './authenticated-request';
import { Roles } from './roles.decorator';
import { TokenVerifier } from './token-verifier.service';

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Global guard: sets `request.principal` from the bearer token (or the session when no `Authorization` header is
 * sent) and enforces `@Roles`. A token that is sent must be valid, on every route: an invalid one is a 401.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly verifier: TokenVerifier,
    private readonly sessions: SessionAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    request.principal = await this.authenticate(request);
    const required = this.reflector.getAllAndOverride(Roles, [context.getHandler(), context.getClass()]);
    if (required) assertAccess(request.principal, required);
    return true;
  }

  private authenticate(request: AuthenticatedRequest): Promise<Principal | null> {
    const header = request.headers.authorization;
    if (header === undefined) return this.sessions.authenticate(request);
    const token = BEARER.exec(header)?.[1];
    if (!token) throw new UnauthorizedException('Malformed Authorization header: expected "Bearer <token>"');
    return this.verifier.verify(token);
  }
}

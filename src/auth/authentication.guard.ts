import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { assertAccess } from '../common/access';
import { Principal, Role } from '../common/principal';
import { SessionAuthenticator } from './auth-hooks';
import { AuthenticatedRequest } from '../common/authenticated-request';
import { Roles } from './roles.decorator';
import { TokenVerifier } from './token-verifier';
import { codedError } from '../common/errors/coded-exception';

const BEARER = /^Bearer\s+(\S+)$/i;

type RequiredRoles = Role | undefined;

/**
 * Global guard: sets `request.principal` from the bearer token (or the session when no `Authorization` header is
 * sent) and enforces `@Roles`. A token that is sent must be valid, on every route: an invalid one is a 401.
 * A route's `@Roles` are read once, on its first request, and kept.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly verifier: TokenVerifier,
    private readonly sessions: SessionAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  /** Per handler and controller class (a handler can be inherited), the roles it requires. */
  private readonly rolesByRoute = new WeakMap<object, Map<object, RequiredRoles>>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    request.principal = await this.authenticate(request);
    const required = this.requiredRoles(context.getHandler(), context.getClass());
    if (required) assertAccess(request.principal, required);
    return true;
  }

  private requiredRoles(handler: object, controller: object): RequiredRoles {
    let byController = this.rolesByRoute.get(handler);
    if (!byController) this.rolesByRoute.set(handler, (byController = new Map<object, RequiredRoles>()));
    if (!byController.has(controller)) {
      const roles = this.reflector.getAllAndOverride(Roles, [handler as never, controller as never]) as RequiredRoles;
      byController.set(controller, roles);
    }
    return byController.get(controller);
  }

  private authenticate(request: AuthenticatedRequest): Promise<Principal | null> {
    const header = request.headers.authorization;
    if (header === undefined) return this.sessions.authenticate(request);
    const token = BEARER.exec(header)?.[1];
    if (!token) throw codedError('TOKEN_INVALID', 'Malformed Authorization header: expected "Bearer <token>"');
    return this.verifier.verify(token);
  }
}

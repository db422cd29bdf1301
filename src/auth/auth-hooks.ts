import type { Request } from 'express';
import { Principal } from '../common/principal';

/**
 * Asked by `TokenVerifier` for every token whose signature and claims are valid. The identity module binds its
 * checks here (see `auth-core.module.ts`): `jti` revoked at logout; user deleted, disabled, or changed since issue.
 */
export abstract class TokenRevocationCheck {
  /** @param tokenVersion the token's `ver` claim: the account's token version when it was issued */
  abstract isRevoked(principal: Principal, tokenVersion: number): Promise<boolean>;
}

/**
 * Asked by the authentication guard when a REST request has no `Authorization` header.
 * The identity module binds its session-cookie lookup here (see `auth-core.module.ts`).
 */
export abstract class SessionAuthenticator {
  /** The principal of the request's session, or null for a guest; throws UnauthorizedException for a bad session. */
  abstract authenticate(request: Request): Promise<Principal | null>;
}

import type { Request } from 'express';
import { Principal } from '../common/principal';

/**
 * Asked by `TokenVerifier` for every token whose signature and claims are valid. The identity module binds its
 * checks here (see `auth-core.module.ts`): `jti` revoked at logout; user deleted, disabled, or changed since `iat`.
 */
export abstract class TokenRevocationCheck {
  /** @param issuedAt the token's `iat` in seconds since the epoch, when present */
  abstract isRevoked(principal: Principal, issuedAt?: number): Promise<boolean>;
}

/**
 * Asked by the authentication guard when a REST request has no `Authorization` header.
 * The identity module binds its session-cookie lookup here (see `auth-core.module.ts`).
 */
export abstract class SessionAuthenticator {
  /** The principal of the request's session, or null for a guest; throws UnauthorizedException for a bad session. */
  abstract authenticate(request: Request): Promise<Principal | null>;
}

import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Principal, Role } from '../common/principal';
import { TokenRevocationCheck } from './auth-hooks';
import { codedError } from '../common/errors/coded-exception';

const ROLES = new Set<string>(Object.values(Role));

interface TokenClaims {
  sub?: unknown;
  username?: unknown;
  role?: unknown;
  jti?: unknown;
  exp?: unknown;
  ver?: unknown;
}

/**
 * Verifies access tokens (HS256 only, `alg: none` refused, `exp` required) and turns their claims into a Principal.
 * Used by the REST guard and by STOMP CONNECT.
 */
@Injectable()
export class TokenVerifier {
  constructor(
    private readonly jwt: JwtService,
    private readonly revocation: TokenRevocationCheck,
  ) {}

  /** @throws UnauthorizedException TOKEN_INVALID for a bad, expired or revoked token */
  async verify(token: string): Promise<Principal> {
    const claims = this.verifySignature(token);
    const principal = toPrincipal(claims);
    if (await this.revocation.isRevoked(principal, tokenVersionOf(claims))) {
      throw codedError('TOKEN_INVALID', 'Token revoked');
    }
    return principal;
  }

  private verifySignature(token: string): TokenClaims {
    try {
      return this.jwt.verify<TokenClaims>(token);
    } catch {
      throw codedError('TOKEN_INVALID', 'Invalid or expired token');
    }
  }
}

/** A token without `ver` was issued under the first version (0). */
function tokenVersionOf({ ver = 0 }: TokenClaims): number {
  if (!Number.isSafeInteger(ver) || (ver as number) < 0) throw codedError('TOKEN_INVALID', 'Invalid token claims');
  return ver as number;
}

function toPrincipal({ sub, username, role, jti, exp }: TokenClaims): Principal {
  const valid =
    typeof sub === 'string' &&
    typeof username === 'string' &&
    typeof role === 'string' &&
    ROLES.has(role) &&
    typeof exp === 'number' &&
    (jti === undefined || typeof jti === 'string');
  if (!valid) throw codedError('TOKEN_INVALID', 'Invalid token claims');
  return { id: sub, username, role: role as Role, exp, ...(jti ? { jti } : {}) };
}

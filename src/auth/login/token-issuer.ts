import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { TokenResponse } from './auth.dto';

export interface TokenSubject {
  id: string;
  username: string;
  role: string;
  /** The account's current token version, carried as `ver`. */
  tokenVersion: number;
}

/**
 * Issues access tokens: HS256 JWTs with `sub`, `username`, `role`, `ver` (token version), `iat`, `exp` (JWT_TTL) and
 * a unique `jti`.
 */
@Injectable()
export class TokenIssuer {
  constructor(private readonly jwt: JwtService) {}

  issue(user: TokenSubject): TokenResponse {
    const claims = { sub: user.id, username: user.username, role: user.role, ver: user.tokenVersion };
    const token = this.jwt.sign(claims, { jwtid: randomUUID() });
    const { exp } = this.jwt.decode<{ exp: number }>(token);
    return { token, expires: exp * 1000 };
  }
}

import { Injectable } from '@nestjs/common';
import { Principal } from '../../common/principal';
import { TokenRevocationCheck } from '../auth-hooks';
import { UserAccounts } from '../users/user-accounts';
import { TokenRevocations } from './token-revocations';

/**
 * The identity side of token verification: a well-signed token is still refused when its `jti` was revoked, or
 * its user is gone (or its `sub` names no account at all), disabled, renamed, has another role now, or changed the
 * password after the token was issued (the account's token version moved on).
 */
@Injectable()
export class AccountTokenCheck extends TokenRevocationCheck {
  constructor(
    private readonly revocation: TokenRevocations,
    private readonly users: UserAccounts,
  ) {
    super();
  }

  async isRevoked(principal: Principal, tokenVersion: number): Promise<boolean> {
    if (principal.jti && (await this.revocation.isRevoked(principal.jti))) return true;
    const state = await this.users.accessState(principal.id);
    return (
      !state ||
      state.disabled ||
      state.username !== principal.username ||
      state.role !== principal.role ||
      tokenVersion !== state.tokenVersion
    );
  }
}

import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { TtlCache } from '../../common/ttl-cache';
import { RevokedToken } from './revoked-token.schema';

/** How long another instance may keep accepting a token revoked elsewhere; this instance refuses it at once. */
const NOT_REVOKED_CACHE_MS = 2000;

/** Revokes JWTs by `jti` until they expire, and answers "is this token revoked?" on every authenticated call. */
@Injectable()
export class TokenRevocations {
  private readonly revoked = new TtlCache<true>(0);
  private readonly notRevoked = new TtlCache<true>(NOT_REVOKED_CACHE_MS);

  constructor(@InjectModel(RevokedToken.name) private readonly tokens: Model<RevokedToken>) {}

  /** @param exp the token's expiry in seconds since the epoch */
  async revoke(jti: string, exp: number): Promise<void> {
    const expiresAt = new Date(exp * 1000);
    this.remember(jti, expiresAt);
    await this.tokens.updateOne({ _id: jti }, { expiresAt }, { upsert: true }).exec();
  }

  async isRevoked(jti: string): Promise<boolean> {
    if (this.revoked.get(jti)) return true;
    if (this.notRevoked.get(jti)) return false;
    const found = await this.tokens.findOne({ _id: jti }).lean().exec();
    if (found) this.remember(jti, found.expiresAt);
    else this.notRevoked.set(jti, true);
    return found !== null;
  }

  private remember(jti: string, expiresAt: Date): void {
    this.notRevoked.delete(jti);
    this.revoked.set(jti, true, expiresAt.getTime() - Date.now());
  }
}

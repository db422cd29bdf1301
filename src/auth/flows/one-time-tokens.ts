import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { secretHash } from '../secret-hash';
import { UserDocument } from '../users/user.schema';
import { OneTimeToken, OneTimeTokenKind } from './one-time-token.schema';

export const ONE_TIME_TOKEN_LIFETIME_MS: Record<OneTimeTokenKind, number> = {
  [OneTimeTokenKind.VERIFICATION]: 24 * 3600 * 1000,
  [OneTimeTokenKind.PASSWORD_RESET]: 3600 * 1000,
};

/** A stored token as the token bean shows it: the presented token, its owner and its expiry. */
export interface OneTimeTokenRecord {
  id: string;
  token: string;
  username: string;
  expiryDate: string;
}

/** Issues, looks up and consumes single-use, expiring tokens. */
@Injectable()
export class OneTimeTokens {
  constructor(@InjectModel(OneTimeToken.name) private readonly tokens: Model<OneTimeToken>) {}

  /** A new token for `user`; it replaces any earlier token of the same kind. */
  async issue(kind: OneTimeTokenKind, user: UserDocument): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.tokens.deleteMany({ kind, userId: user._id }).exec();
    await this.tokens.create({
      tokenHash: secretHash(token),
      kind,
      userId: user._id,
      username: user.username,
      expiresAt: new Date(Date.now() + ONE_TIME_TOKEN_LIFETIME_MS[kind]),
    });
    return token;
  }

  /** Removes the token and returns its user id; null when unknown, expired or already used. */
  async consume(kind: OneTimeTokenKind, token: string): Promise<string | null> {
    const found = await this.tokens
      .findOneAndDelete({ tokenHash: secretHash(token), kind, expiresAt: { $gt: new Date() } })
      .lean()
      .exec();
    return found ? String(found.userId) : null;
  }

  /** The live token record, optionally only when it belongs to `username`; null otherwise. */
  async find(kind: OneTimeTokenKind, token: string, username?: string): Promise<OneTimeTokenRecord | null> {
    const filter = { tokenHash: secretHash(token), kind, expiresAt: { $gt: new Date() } };
    const owner = username === undefined ? {} : { username: username.trim().toLowerCase() };
    const found = await this.tokens
      .findOne({ ...filter, ...owner })
      .lean()
      .exec();
    if (!found) return null;
    return { id: String(found._id), token, username: found.username, expiryDate: found.expiresAt.toISOString() };
  }
}

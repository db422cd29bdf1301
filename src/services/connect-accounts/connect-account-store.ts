import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, UpdateQuery } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { ConnectAccount } from './connect-account.schema';
import { StoredConnectAccount } from './connect-account.view';
import { ConnectOwner } from './connect-owner';

/** The sandbox provider's connect accounts, one per owner. */
@Injectable()
export class ConnectAccountStore {
  constructor(@InjectModel(ConnectAccount.name) private readonly accounts: Model<ConnectAccount>) {}

  find(owner: ConnectOwner): Promise<StoredConnectAccount | null> {
    return this.accounts.findOne({ ownerKey: owner.ownerKey }).lean<StoredConnectAccount>().exec();
  }

  /**
   * Applies `update` to the owner's account, creating it first if there is none (as a provider does on first use).
   * Of two first uses at once, one insert loses on the unique owner key; its update then applies to the winner's.
   */
  async upsert(owner: ConnectOwner, update: UpdateQuery<ConnectAccount>): Promise<StoredConnectAccount> {
    try {
      return await this.upsertOnce(owner, update);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return this.upsertOnce(owner, update);
    }
  }

  private async upsertOnce(owner: ConnectOwner, update: UpdateQuery<ConnectAccount>): Promise<StoredConnectAccount> {
    const { ownerKey, userId, sellerId } = owner;
    const created = { ownerKey, userId, ...(sellerId ? { sellerId } : {}) };
    const options = { upsert: true, returnDocument: 'after' } as const;
    const account = await this.accounts
      .findOneAndUpdate({ ownerKey }, { ...update, $setOnInsert: created }, options)
      .lean<StoredConnectAccount>()
      .exec();
    return account;
  }

  async deleteOfSeller(sellerId: string): Promise<boolean> {
    return (await this.accounts.deleteOne({ sellerId: String(sellerId) }).exec()).deletedCount > 0;
  }

  findByOnboardingToken(token: string): Promise<StoredConnectAccount | null> {
    return this.accounts
      .findOne({ onboardingToken: String(token) })
      .lean<StoredConnectAccount>()
      .exec();
  }

  async acceptTerms(token: string): Promise<StoredConnectAccount | null> {
    return this.accounts
      .findOneAndUpdate(
        { onboardingToken: String(token), onboardingExpiresAt: { $gt: new Date() } },
        { $set: { termsAcceptedAt: new Date() }, $unset: { onboardingToken: 1, onboardingExpiresAt: 1 } },
        { returnDocument: 'after' },
      )
      .lean<StoredConnectAccount>()
      .exec();
  }
}

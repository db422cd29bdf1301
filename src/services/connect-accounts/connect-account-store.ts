import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, UpdateQuery } from 'mongoose';
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

  /** Applies `update` to the owner's account, creating it first if there is none (as a provider does on first use). */
  async upsert(owner: ConnectOwner, update: UpdateQuery<ConnectAccount> = {}): Promise<StoredConnectAccount> {
    const { ownerKey, userId, sellerId } = owner;
    const created = { ownerKey, userId, ...(sellerId ? { sellerId } : {}) };
    return (await this.accounts
      .findOneAndUpdate({ ownerKey }, { ...update, $setOnInsert: created }, { upsert: true, returnDocument: 'after' })
      .lean<StoredConnectAccount>()
      .exec())!;
  }

  async deleteOfSeller(sellerId: string): Promise<boolean> {
    return (await this.accounts.deleteOne({ sellerId: String(sellerId) }).exec()).deletedCount > 0;
  }

  findByOnboardingToken(token: string): Promise<StoredConnectAccount | null> {
    return this.accounts.findOne({ onboardingToken: String(token) }).lean<StoredConnectAccount>().exec();
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

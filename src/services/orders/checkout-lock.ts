import { Injectable } from '@nestjs/common';
import { InjectModel, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { codedError } from '../../common/errors/coded-exception';

/** Held while a buyer's cart is being checked out. */
@Schema({ collection: 'checkout_locks', versionKey: false })
export class CheckoutLock {
  @Prop({ required: true, unique: true }) buyerId!: string;
  @Prop({ required: true }) lockedAt!: Date;
}
export const CheckoutLockSchema = SchemaFactory.createForClass(CheckoutLock);

/** A lock older than this was left by a stopped process and may be taken over. */
const STALE_AFTER_MS = 60_000;

/**
 * One checkout per buyer at a time, across instances: two at once (a double click) would both read the same cart
 * and order it twice. The lock is a unique document per buyer, taken over only once stale.
 */
@Injectable()
export class CheckoutLocks {
  constructor(@InjectModel(CheckoutLock.name) private readonly locks: Model<CheckoutLock>) {}

  /** Runs `work` holding the buyer's lock; 409 while another checkout of theirs runs. */
  async holding<T>(buyerId: string, work: () => Promise<T>): Promise<T> {
    const lockedAt = new Date();
    await this.take(buyerId, lockedAt);
    try {
      return await work();
    } finally {
      await this.locks.deleteOne({ buyerId, lockedAt }).exec();
    }
  }

  private async take(buyerId: string, lockedAt: Date): Promise<void> {
    const stale = new Date(lockedAt.getTime() - STALE_AFTER_MS);
    try {
      const takeOverStale = { buyerId, lockedAt: { $lt: stale } };
      await this.locks.updateOne(takeOverStale, { $set: { lockedAt } }, { upsert: true }).exec();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      throw codedError('CONCURRENT_CHANGE', 'A checkout of this cart is already running');
    }
  }
}

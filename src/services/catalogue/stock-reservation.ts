import { ConflictException, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { SellerSku } from './seller-sku.schema';

export interface StockLine {
  sellerSku: Types.ObjectId;
  quantity: number;
}

/**
 * Takes stock out of seller SKUs for orders (DESIGN §7). Each line is one conditional `$inc` that only matches
 * while `quantity >= n`, so concurrent checkouts never take more than there is and stock never goes negative.
 * There are no multi-document transactions on a standalone server: when a later line fails, the lines already
 * taken are given back.
 */
@Injectable()
export class StockReservation {
  private readonly logger = new Logger(StockReservation.name);

  constructor(@InjectModel(SellerSku.name) private readonly offers: Model<SellerSku>) {}

  /** All lines or none; 409 naming the first offer without enough stock. */
  async reserve(lines: StockLine[]): Promise<void> {
    const taken: StockLine[] = [];
    for (const line of lines) {
      const updated = await this.offers
        .updateOne({ _id: line.sellerSku, quantity: { $gte: line.quantity } }, { $inc: { quantity: -line.quantity } })
        .exec();
      if (updated.modifiedCount !== 1) {
        await this.release(taken);
        throw new ConflictException(`Not enough stock of seller SKU ${String(line.sellerSku)}`);
      }
      taken.push(line);
    }
  }

  /** Gives stock back (a failed checkout, a canceled or removed unpaid order, a removed line). */
  async release(lines: StockLine[]): Promise<void> {
    for (const line of lines) {
      try {
        await this.offers.updateOne({ _id: line.sellerSku }, { $inc: { quantity: line.quantity } }).exec();
      } catch (error) {
        const what = `${line.quantity} of seller SKU ${String(line.sellerSku)}`;
        this.logger.error(`Could not give back ${what}`, (error as Error).stack);
      }
    }
  }
}

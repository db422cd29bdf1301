import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { QueryFilter, Model, Types, UpdateQuery } from 'mongoose';
import { StoredOffer } from './seller-offer.view';
import { SellerSku } from './seller-sku.schema';
import { codedError } from '../../common/errors/coded-exception';

/** What a seller does to one warehouse's stock: set the units on hand, or add (remove) some. */
export type StockEdit = { set: number } | { delta: number };

/** Attempts of one edit; an attempt loses only to another write of the same offer between its read and its update. */
const ATTEMPTS = 25;

export type StockState = Pick<SellerSku, 'quantity' | 'reserved' | 'stockByWarehouse'> & { _id: Types.ObjectId };

/** One conditional update that makes the edit if the offer is still as it was read. */
interface Step {
  filter: QueryFilter<SellerSku>;
  update: UpdateQuery<SellerSku>;
}

/**
 * Seller edits of an offer's stock at one warehouse (README, "Offers and stock"). Each attempt decides on the offer
 * as last read (the first on the caller's own read, so an uncontended edit reads it once) and writes with one
 * conditional update (answering the offer as written) whose filter pins what the decision relied on; it moves the
 * warehouse's on-hand and `quantity` (available) by the same amount, so `quantity + reserved` stays the sum on
 * hand, and the filter keeps `quantity >= 0`, so the units on hand never fall below those reserved by open orders.
 * Checkouts racing with the edit change `quantity` and `reserved` only: they make an attempt fail only when
 * it would leave less than nothing available (a 409 then, on the next read) or, for an offer without warehouse
 * stock yet, make it read again.
 */
@Injectable()
export class OfferStock {
  constructor(@InjectModel(SellerSku.name) private readonly offers: Model<SellerSku>) {}

  /**
   * @param read the offer as the caller just read it: the first attempt decides on it, later ones read again
   * @returns the offer as the edit left it
   * 404 unknown offer; 409 when the edit would leave fewer on hand than reserved, or a warehouse below 0.
   */
  async edit(read: StockState, warehouse: Types.ObjectId, edit: StockEdit): Promise<StoredOffer> {
    let offer: StockState | null = read;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (!offer) throw new NotFoundException(`Offer ${String(read._id)} not found`);
      const step = planStep(offer, warehouse, edit);
      const updated = await this.offers
        .findOneAndUpdate(step.filter, step.update, { returnDocument: 'after' })
        .lean<StoredOffer>()
        .exec();
      if (updated) return updated;
      offer = await this.offers
        .findById(read._id, { quantity: 1, reserved: 1, stockByWarehouse: 1 })
        .lean<StockState>()
        .exec();
    }
    throw codedError('CONCURRENT_CHANGE', `Offer ${String(read._id)} is changing too often; try again`);
  }
}

function planStep(offer: StockState, warehouse: Types.ObjectId, edit: StockEdit): Step {
  const reserved = offer.reserved ?? 0;
  const stock = offer.stockByWarehouse ?? [];
  if (stock.length === 0) return firstWarehouse(offer, reserved, warehouse, edit);
  const entry = stock.find((candidate) => candidate.warehouse.equals(warehouse));
  const onHand = entry?.onHand ?? 0;
  const next = 'set' in edit ? edit.set : onHand + edit.delta;
  if (next < 0) throw new ConflictException(`Warehouse ${String(warehouse)} has only ${onHand} on hand`);
  const change = next - onHand;
  assertAboveReserved(offer.quantity + change, next, reserved);
  if (!entry) {
    return {
      filter: {
        _id: offer._id,
        'stockByWarehouse.0': { $exists: true },
        'stockByWarehouse.warehouse': { $ne: warehouse },
      },
      update: { $push: { stockByWarehouse: { warehouse, onHand: next } }, $inc: { quantity: next } },
    };
  }
  return {
    filter: {
      _id: offer._id,
      quantity: { $gte: -change },
      stockByWarehouse: { $elemMatch: { warehouse, onHand } },
    },
    update: { $inc: { quantity: change, 'stockByWarehouse.$.onHand': change } },
  };
}

/**
 * An offer without warehouse stock holds `quantity + reserved` on hand in no particular place: its first warehouse
 * edit puts all of it at that warehouse, then applies the edit (a `set` replaces it).
 */
function firstWarehouse(offer: StockState, reserved: number, warehouse: Types.ObjectId, edit: StockEdit): Step {
  const next = 'set' in edit ? edit.set : offer.quantity + reserved + edit.delta;
  if (next < 0)
    throw new ConflictException(`Warehouse ${String(warehouse)} has only ${offer.quantity + reserved} on hand`);
  const available = next - reserved;
  assertAboveReserved(available, next, reserved);
  return {
    filter: {
      _id: offer._id,
      'stockByWarehouse.0': { $exists: false },
      quantity: offer.quantity,
      reserved: offer.reserved === undefined ? { $exists: false } : reserved,
    },
    update: { $set: { stockByWarehouse: [{ warehouse, onHand: next }], quantity: available, reserved } },
  };
}

function assertAboveReserved(available: number, onHandHere: number, reserved: number): void {
  if (available < 0) {
    throw new ConflictException(
      `Open orders have reserved ${reserved} units that are still on hand; ${onHandHere} at this warehouse ` +
        `would leave ${-available} of them without stock`,
    );
  }
}

import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { Types } from 'mongoose';
import { OfferRepository, StockState } from './offer.repository';
import { StoredOffer } from './seller-offer.view';
import { codedError } from '../../common/errors/coded-exception';

/** What a seller does to one warehouse's stock: set the units on hand, or add (remove) some. */
export type StockEdit = { set: number } | { delta: number };

/** Attempts of one edit; an attempt loses only to another write of the same offer between its read and its update. */
const ATTEMPTS = 25;

/** One conditional update that makes the edit if the offer is still as it was read (null otherwise). */
type Step = (offers: OfferRepository) => Promise<StoredOffer | null>;

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
  constructor(private readonly offers: OfferRepository) {}

  /**
   * @param read the offer as the caller just read it: the first attempt decides on it, later ones read again
   * @returns the offer as the edit left it
   * 404 unknown offer; 409 when the edit would leave fewer on hand than reserved, or a warehouse below 0.
   */
  async edit(read: StockState, warehouse: Types.ObjectId, edit: StockEdit): Promise<StoredOffer> {
    let offer: StockState | null = read;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (!offer) throw new NotFoundException(`Offer ${String(read._id)} not found`);
      const updated = await planStep(offer, warehouse, edit)(this.offers);
      if (updated) return updated;
      offer = await this.offers.stockOf(read._id);
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
  if (!entry) return (offers) => offers.addWarehouse(offer._id, warehouse, next);
  return (offers) => offers.moveOnHand(offer._id, warehouse, onHand, change);
}

/**
 * An offer without warehouse stock holds `quantity + reserved` on hand in no particular place: its first warehouse
 * edit puts all of it at that warehouse, then applies the edit (a `set` replaces it).
 */
function firstWarehouse(offer: StockState, reserved: number, warehouse: Types.ObjectId, edit: StockEdit): Step {
  const next = 'set' in edit ? edit.set : offer.quantity + reserved + edit.delta;
  if (next < 0)
    throw new ConflictException(`Warehouse ${String(warehouse)} has only ${offer.quantity + reserved} on hand`);
  assertAboveReserved(next - reserved, next, reserved);
  return (offers) => offers.placeAtFirstWarehouse(offer, warehouse, next);
}

function assertAboveReserved(available: number, onHandHere: number, reserved: number): void {
  if (available < 0) {
    throw new ConflictException(
      `Open orders have reserved ${reserved} units that are still on hand; ${onHandHere} at this warehouse ` +
        `would leave ${-available} of them without stock`,
    );
  }
}

import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, PipelineStage, QueryFilter, Types, UpdateQuery } from 'mongoose';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import type { SellerRecord } from './seller-directory';
import { StoredOffer } from './seller-offer.view';
import { IndexSourcesRead, indexSourcesLookups, indexSourcesOf } from './storefront-indexer';
import { SellerSku } from './seller-sku.schema';

type Doc = Record<string, unknown>;

/** The stages that read offer `id` with its seller (joined on `_id`, as `sellers`). */
function withSeller(id: Types.ObjectId): PipelineStage[] {
  return [
    { $match: { _id: id } },
    { $lookup: { from: 'sellers', localField: 'seller', foreignField: '_id', as: 'sellers' } },
  ];
}

/** What a new offer is made of (its seller, SKU and product already checked). */
export type NewOffer = Pick<
  SellerSku,
  'seller' | 'sku' | 'product' | 'price' | 'currency' | 'active' | 'quantity' | 'reserved' | 'stockByWarehouse'
>;

/** The fields a seller changes on an offer besides its stock. */
export type OfferTerms = Partial<Pick<SellerSku, 'price' | 'currency' | 'active'>>;

/** An offer's stock figures as a stock edit decides on them. */
export type StockState = Pick<SellerSku, 'quantity' | 'reserved' | 'stockByWarehouse'> & { _id: Types.ObjectId };

/** Units of one offer: taken by an order, given back, shipped or returned. */
export interface Units {
  offer: Types.ObjectId;
  quantity: number;
}

/**
 * The only code that writes the `seller_skus` collection (offers; checked by
 * `test/architecture/collection-writers.spec.ts`). Callers ask by intent: make an offer, change its terms, move its
 * stock at a warehouse, take units for an order, give them back, ship or return them. Every stock write is one
 * conditional update whose filter holds what its caller decided on, keeping `quantity + reserved` equal to the units
 * on hand and `quantity >= 0` (README, "Offers and stock"): it answers null, false or 0 when the offer changed
 * meanwhile, and the caller reads again or refuses. Writes go through the model, so the storefront index follows
 * them; the single-offer ones are `findOneAndUpdate`s, whose answer names the product and spares the index hook a
 * read of its own.
 */
@Injectable()
export class OfferRepository {
  constructor(@InjectModel(SellerSku.name) private readonly offers: Model<SellerSku>) {}

  /** The offer with its seller (one read, the seller joined on `_id`); null for an unknown offer. */
  async findWithSeller(id: Types.ObjectId): Promise<{ offer: StoredOffer; seller: SellerRecord | undefined } | null> {
    const [found] = await this.offers.aggregate<StoredOffer & { sellers: SellerRecord[] }>(withSeller(id)).exec();
    if (!found) return null;
    const { sellers, ...offer } = found;
    return { offer, seller: sellers[0] };
  }

  /**
   * `findWithSeller` that also reads, in the same aggregate, what the storefront index's refresh after a write of the
   * offer's own fields needs (`indexSources`, for `withIndexSourcesRead`; none when the product has no entry yet).
   */
  async findForOwnWrite(id: Types.ObjectId): Promise<{
    offer: StoredOffer;
    seller: SellerRecord | undefined;
    indexSources: IndexSourcesRead | undefined;
  } | null> {
    type Found = StoredOffer & { sellers: SellerRecord[]; storefrontEntry: Doc[]; storefrontOffers: Doc[] };
    const [found] = await this.offers.aggregate<Found>([...withSeller(id), ...indexSourcesLookups()]).exec();
    if (!found) return null;
    const { sellers, storefrontEntry, storefrontOffers, ...offer } = found;
    return { offer, seller: sellers[0], indexSources: indexSourcesOf({ storefrontEntry, storefrontOffers }) };
  }

  /** A page of the seller's offers by SKU (the `{seller, sku}` index), and how many it has in all. */
  async pageOfSeller(seller: Types.ObjectId, page: number, limit: number) {
    const [offers, total] = await Promise.all([
      this.offers
        .find({ seller })
        .sort({ sku: 1 })
        .skip(page * limit)
        .limit(limit)
        .lean<StoredOffer[]>()
        .exec(),
      this.offers.countDocuments({ seller }).exec(),
    ]);
    return { offers, total };
  }

  async stockOf(id: Types.ObjectId): Promise<StockState | null> {
    return this.offers.findById(id, { quantity: 1, reserved: 1, stockByWarehouse: 1 }).lean<StockState>().exec();
  }

  async isInactive(id: Types.ObjectId): Promise<boolean> {
    return (await this.offers.findById(id, { active: 1 }).lean().exec())?.active === false;
  }

  /** The offer as stored; a duplicate key (the seller offers the SKU already) is thrown as the driver's error. */
  async create(offer: NewOffer): Promise<StoredOffer> {
    return (await this.offers.create(offer)).toObject<StoredOffer>();
  }

  async remove(id: Types.ObjectId): Promise<void> {
    await this.offers.deleteOne({ _id: id }).exec();
  }

  /** The offer as changed; null for an unknown one. */
  async changeTerms(id: Types.ObjectId, terms: OfferTerms): Promise<StoredOffer | null> {
    return this.updated({ _id: id }, { $set: terms });
  }

  /**
   * Moves the units on hand at a warehouse the offer lists, from `onHand` (as read) by `change`, and `quantity` with
   * them, unless that would leave `quantity` below 0. Null when the warehouse no longer holds `onHand`.
   */
  moveOnHand(id: Types.ObjectId, warehouse: Types.ObjectId, onHand: number, change: number) {
    return this.updated(
      { _id: id, quantity: { $gte: -change }, stockByWarehouse: { $elemMatch: { warehouse, onHand } } },
      { $inc: { quantity: change, 'stockByWarehouse.$.onHand': change } },
    );
  }

  /** Adds a warehouse holding `onHand` (all for sale) to an offer that keeps stock at others, and not yet there. */
  addWarehouse(id: Types.ObjectId, warehouse: Types.ObjectId, onHand: number) {
    return this.updated(
      { _id: id, 'stockByWarehouse.0': { $exists: true }, 'stockByWarehouse.warehouse': { $ne: warehouse } },
      { $push: { stockByWarehouse: { warehouse, onHand } }, $inc: { quantity: onHand } },
    );
  }

  /**
   * Puts an offer without warehouse stock, still as `read`, at its first warehouse with `onHand` units, of which the
   * reserved ones stay reserved.
   */
  placeAtFirstWarehouse(read: StockState, warehouse: Types.ObjectId, onHand: number) {
    const reserved = read.reserved ?? 0;
    return this.updated(
      {
        _id: read._id,
        'stockByWarehouse.0': { $exists: false },
        quantity: read.quantity,
        reserved: read.reserved === undefined ? { $exists: false } : reserved,
      },
      { $set: { stockByWarehouse: [{ warehouse, onHand }], quantity: onHand - reserved, reserved } },
    );
  }

  /** Takes units for an order if the offer is active and has them; false otherwise. */
  async take({ offer, quantity }: Units): Promise<boolean> {
    const taken = await this.updated(
      { _id: offer, active: { $ne: false }, quantity: { $gte: quantity } },
      { $inc: { quantity: -quantity, reserved: quantity } },
    );
    return taken !== null;
  }

  /** Reserved units become available again; false when fewer are reserved. */
  async release({ offer, quantity }: Units): Promise<boolean> {
    const released = await this.updated(
      { _id: offer, reserved: { $gte: quantity } },
      { $inc: { quantity, reserved: -quantity } },
    );
    return released !== null;
  }

  /** Units taken before offers counted their reservations: they only ever left `quantity`. */
  async releaseUncounted({ offer, quantity }: Units): Promise<void> {
    await this.updated({ _id: offer }, { $inc: { quantity } });
  }

  /** Shipped units come back to the first warehouse (false when the offer has none) and are for sale again. */
  async returnToFirstWarehouse({ offer, quantity }: Units): Promise<boolean> {
    const returned = await this.updated(
      { _id: offer, 'stockByWarehouse.0': { $exists: true } },
      { $inc: { quantity, 'stockByWarehouse.0.onHand': quantity } },
    );
    return returned !== null;
  }

  /** Shipped units come back to an offer without warehouse stock (false when it has some now). */
  async returnUnplaced({ offer, quantity }: Units): Promise<boolean> {
    const returned = await this.updated(
      { _id: offer, 'stockByWarehouse.0': { $exists: false } },
      { $inc: { quantity } },
    );
    return returned !== null;
  }

  /** Reserved units of an offer without warehouse stock left with their order; false when that is no longer so. */
  async shipUnplaced({ offer, quantity }: Units): Promise<boolean> {
    const shipped = await this.updated(
      { _id: offer, reserved: { $gte: quantity }, 'stockByWarehouse.0': { $exists: false } },
      { $inc: { reserved: -quantity } },
    );
    return shipped !== null;
  }

  /** Reserved units left with their order from `warehouse`; false when it or the reservations no longer have them. */
  async shipFrom(warehouse: Types.ObjectId, { offer, quantity }: Units): Promise<boolean> {
    const shipped = await this.updated(
      {
        _id: offer,
        reserved: { $gte: quantity },
        stockByWarehouse: { $elemMatch: { warehouse, onHand: { $gte: quantity } } },
      },
      { $inc: { reserved: -quantity, 'stockByWarehouse.$.onHand': -quantity } },
    );
    return shipped !== null;
  }

  /** The fixed offers (demo data) whose ids are not there yet. */
  insertMissing(records: FixedRecord[]): Promise<void> {
    return insertMissing(this.offers, records);
  }

  /** One conditional update of one offer, answering it as written (null when the filter matched none). */
  private updated(filter: QueryFilter<SellerSku>, update: UpdateQuery<SellerSku>): Promise<StoredOffer | null> {
    return this.offers.findOneAndUpdate(filter, update, { returnDocument: 'after' }).lean<StoredOffer>().exec();
  }
}

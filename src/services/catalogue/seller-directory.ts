import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { toObjectId } from '../../common/mongo/object-id';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import { Seller } from './seller.schema';
import { SellerView, toSellerView } from './seller.view';

/** A seller as stored, for the modules that act on sellers (geolocation, orders, connect accounts). */
export type SellerRecord = Seller & { _id: Types.ObjectId };

/** What onboarding gives a new seller. */
export type NewSeller = Pick<Seller, 'name' | 'country' | 'userId' | 'profileId'>;

/** The user account and company profile acting for a seller. */
export type SellerAccounts = Pick<Seller, 'userId' | 'profileId'>;

/**
 * The catalogue's port for sellers: what other modules read of them and change (onboarding, company details, the
 * links to shipping addresses, which the geolocation module owns). The only code that writes the `sellers`
 * collection, so the sellers' repository (checked by `test/architecture/collection-writers.spec.ts`). Writes go
 * through the seller model, so the storefront index sees them.
 */
@Injectable()
export class SellerDirectory {
  constructor(@InjectModel(Seller.name) private readonly sellers: Model<Seller>) {}

  /** 400 for a malformed id, 404 for an unknown one. */
  async get(sellerId: string): Promise<SellerRecord> {
    const seller = await this.sellers.findById(toObjectId(sellerId, 'sellerId')).lean<SellerRecord>().exec();
    if (!seller) throw new NotFoundException(`Seller ${sellerId} not found`);
    return seller;
  }

  /** Creates a seller (onboarding); its id. */
  async create(seller: NewSeller): Promise<string> {
    return String((await this.sellers.create(seller))._id);
  }

  /** Keeps a seller's name and country in step with its company profile (and links the profile). */
  async setCompany(sellerId: string, company: Pick<Seller, 'name' | 'country' | 'profileId'>): Promise<void> {
    await this.sellers.updateOne({ _id: toObjectId(sellerId, 'sellerId') }, { $set: company }).exec();
  }

  /** The id of the seller that the user account acts for, if any. */
  async idActingFor(userId: string): Promise<Types.ObjectId | undefined> {
    return (await this.sellers.findOne({ userId }, { _id: 1 }).lean().exec())?._id;
  }

  /** The accounts acting for each of the sellers, by seller id (unknown sellers left out). */
  async accountsOf(sellerIds: string[]): Promise<Map<string, SellerAccounts>> {
    const found = await this.sellers
      .find({ _id: { $in: sellerIds } }, { userId: 1, profileId: 1 })
      .lean()
      .exec();
    return new Map(found.map(({ _id, userId, profileId }) => [String(_id), { userId, profileId }]));
  }

  /** The sellers of an ISO country code, by name. */
  async inCountry(countryCode: string): Promise<SellerView[]> {
    return (await this.sellers.find({ country: countryCode }).sort({ name: 1 }).lean().exec()).map(toSellerView);
  }

  /** Whether some seller ships from the address (which makes the address public). */
  async shipsFrom(addressId: Types.ObjectId): Promise<boolean> {
    return Boolean(await this.sellers.exists({ shippingAddresses: addressId }).exec());
  }

  async linkShippingAddress(sellerId: Types.ObjectId, addressId: Types.ObjectId): Promise<void> {
    await this.sellers.updateOne({ _id: sellerId }, { $addToSet: { shippingAddresses: addressId } }).exec();
  }

  async unlinkShippingAddress(sellerId: Types.ObjectId, addressId: Types.ObjectId): Promise<void> {
    await this.sellers.updateOne({ _id: sellerId }, { $pull: { shippingAddresses: addressId } }).exec();
  }

  /** Fixed records (the demo data) whose id is not there yet; see {@link insertMissing}. */
  insertMissing(records: FixedRecord[]): Promise<void> {
    return insertMissing(this.sellers, records);
  }

  /** Removes the addresses from every seller that ships from them (before they are deleted). */
  async forgetAddresses(addressIds: Types.ObjectId[]): Promise<void> {
    await this.sellers
      .updateMany({ shippingAddresses: { $in: addressIds } }, { $pull: { shippingAddresses: { $in: addressIds } } })
      .exec();
  }
}

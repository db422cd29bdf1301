import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { toObjectId } from '../../common/mongo/object-id';
import { Principal } from '../../common/principal';
import { assertOwnerOrAdmin } from '../catalogue/caller';
import { SellerDirectory, SellerRecord } from '../catalogue/seller-directory';
import { SellerView } from '../catalogue/seller.view';
import { AddressDto } from './address.dto';
import { Address } from './address.schema';
import { AddressView, toAddressView } from './address.view';
import { AddressBook } from './address-book';
import { CountryDirectory } from './country-directory';
import { CountryView } from './country.view';

/** Sellers' countries and shipping addresses; changes only by the seller's own user or an ADMIN. */
@Injectable()
export class SellerAddresses {
  constructor(
    private readonly sellers: SellerDirectory,
    @InjectModel(Address.name) private readonly addresses: Model<Address>,
    private readonly addressBook: AddressBook,
    private readonly countries: CountryDirectory,
  ) {}

  async countryOf(sellerId: string): Promise<CountryView> {
    return this.countries.get((await this.find(sellerId)).country);
  }

  /** Where the seller's parcels leave from: its first warehouse (shipping) address's country, else its own. */
  async warehouseCountry(sellerId: string): Promise<string> {
    const seller = await this.find(sellerId);
    const [first] = seller.shippingAddresses;
    const warehouse = first ? await this.addresses.findById(first, { country: 1 }).lean() : null;
    return warehouse?.country ?? seller.country;
  }

  async sellersIn(countryCode: string): Promise<SellerView[]> {
    const code = this.countries.resolve(countryCode);
    return this.sellers.inCountry(code);
  }

  async shippingAddresses(sellerId: string): Promise<AddressView[]> {
    const seller = await this.find(sellerId);
    const found = await this.addresses
      .find({ _id: { $in: seller.shippingAddresses } })
      .sort({ _id: 1 })
      .lean();
    return found.map(toAddressView);
  }

  async addShippingAddress(sellerId: string, dto: AddressDto, caller: Principal): Promise<AddressView> {
    const seller = await this.find(sellerId);
    assertOwnerOrAdmin(caller, seller.userId);
    const address = await this.addressBook.create(dto, seller.userId ?? caller.id);
    await this.sellers.linkShippingAddress(seller._id, address._id);
    return toAddressView(address);
  }

  /** Unlinks the address from the seller; with `deleteAddress` the address itself is removed everywhere. */
  async removeShippingAddress(
    sellerId: string,
    addressId: string,
    caller: Principal,
    deleteAddress: boolean,
  ): Promise<void> {
    const seller = await this.find(sellerId);
    assertOwnerOrAdmin(caller, seller.userId);
    const id = toObjectId(addressId, 'addressId');
    if (!seller.shippingAddresses.some((linked) => linked.equals(id))) {
      throw new NotFoundException(`Address ${addressId} is not a shipping address of seller ${sellerId}`);
    }
    if (deleteAddress) return this.addressBook.deleteAndClean([id]);
    await this.sellers.unlinkShippingAddress(seller._id, id);
  }

  find(sellerId: string): Promise<SellerRecord> {
    return this.sellers.get(sellerId);
  }
}

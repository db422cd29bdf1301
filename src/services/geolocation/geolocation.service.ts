import { PipelineStage } from 'mongoose';
import { Bean, Exposed, MapOf } from '../../bean';
import { Page } from '../../common/page';
import { Role } from '../../common/principal';
import { requireCaller } from '../catalogue/caller';
import { SellerView } from '../catalogue/seller.view';
import { AddressDto } from './address.dto';
import { AddressView, toAddressView } from './address.view';
import { AddressBook } from './address-book';
import { CountryDirectory } from './country-directory';
import { CountryView } from './country.view';
import { SellerAddresses } from './seller-addresses';

/**
 * The GUEST-level geolocation bean. Countries and sellers' countries and shipping addresses (business addresses a
 * storefront shows) are public. Addresses are personal data, so every other method needs at least a USER, who acts
 * on their own addresses and their own seller only; an ADMIN acts on any. The repository summary is ADMIN-only.
 */
@Bean('geoLocationServiceImpl', Role.GUEST)
export class GeoLocationService {
  constructor(
    private readonly countries: CountryDirectory,
    private readonly addressBook: AddressBook,
    private readonly sellerAddresses: SellerAddresses,
  ) {}

  /** A repository cannot travel as JSON; callers get what it holds. */
  @Exposed([], { role: Role.ADMIN })
  async getAddressRepository(): Promise<{ collection: string; entity: string; count: number }> {
    return { collection: 'addresses', entity: 'Address', count: await this.addressBook.count() };
  }

  @Exposed(['String'])
  getPaginationFilter(requestJson: string): PipelineStage[] {
    return this.countries.pipeline(requestJson);
  }

  @Exposed(['String'])
  searchCountries(requestJson: string): Promise<CountryView[]> {
    return this.countries.search(requestJson);
  }

  @Exposed(['String'])
  searchCountriesPaged(requestJson: string): Promise<Page<CountryView>> {
    return this.countries.searchPaged(requestJson);
  }

  @Exposed(['String', 'String', 'String'], { role: Role.USER })
  searchAddresses(query: string, from: string, to: string): Promise<AddressView[]> {
    return this.addressBook.search(query, from, to, requireCaller());
  }

  @Exposed(['String'], { role: Role.USER })
  getAddressById(addressId: string): Promise<AddressView> {
    return this.addressBook.get(addressId, requireCaller());
  }

  @Exposed()
  getCountries(): CountryView[] {
    return this.countries.list();
  }

  @Exposed(['String'])
  getCountryByCode(code: string): CountryView {
    return this.countries.get(code);
  }

  /** The alpha-2 code for a code in any ISO form (alpha-2, alpha-3, numeric) or a name in the request language. */
  @Exposed(['String'])
  getCountryCodeValue(code: string): string {
    return this.countries.resolve(code);
  }

  @Exposed(['String'])
  getCountryBySellerId(sellerId: string): Promise<CountryView> {
    return this.sellerAddresses.countryOf(sellerId);
  }

  @Exposed(['String'])
  async getCountryNameBySellerId(sellerId: string): Promise<string> {
    return (await this.sellerAddresses.countryOf(sellerId)).name;
  }

  @Exposed(['String'])
  getSellersByCountryCode(countryCode: string): Promise<SellerView[]> {
    return this.sellerAddresses.sellersIn(countryCode);
  }

  @Exposed([MapOf(AddressDto)], { role: Role.USER })
  async createAddress(address: AddressDto): Promise<AddressView> {
    return toAddressView(await this.addressBook.create(address, requireCaller().id));
  }

  @Exposed([MapOf(AddressDto)], { role: Role.USER })
  saveAddress(address: AddressDto): Promise<AddressView> {
    return this.addressBook.save(address, requireCaller());
  }

  @Exposed(['String'], { role: Role.USER })
  removeAddressAndClean(addressId: string): Promise<void> {
    return this.addressBook.removeAndClean(addressId, requireCaller());
  }

  @Exposed(['IdList'], { role: Role.USER })
  removeAddressesByIds(addressesIds: string[]): Promise<void> {
    return this.addressBook.removeMany(addressesIds, requireCaller());
  }

  @Exposed(['String', MapOf(AddressDto)], { role: Role.USER })
  addShippingAddress(sellerId: string, address: AddressDto): Promise<AddressView> {
    return this.sellerAddresses.addShippingAddress(sellerId, address, requireCaller());
  }

  /** Unlinks the address from the seller and deletes it. */
  @Exposed(['String', 'String'], { role: Role.USER })
  removeShippingAddress(sellerId: string, addressId: string): Promise<void> {
    return this.sellerAddresses.removeShippingAddress(sellerId, addressId, requireCaller(), true);
  }

  /** Unlinks the address from the seller; the address itself stays. */
  @Exposed(['String', 'String'], { role: Role.USER })
  removeAddressFromSeller(sellerId: string, addressId: string): Promise<void> {
    return this.sellerAddresses.removeShippingAddress(sellerId, addressId, requireCaller(), false);
  }

  @Exposed(['String'])
  getShippingAddresses(sellerId: string): Promise<AddressView[]> {
    return this.sellerAddresses.shippingAddresses(sellerId);
  }
}

import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, Model, Types } from 'mongoose';
import { toObjectId } from '../../common/mongo/object-id';
import { Principal } from '../../common/principal';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import { literalMatch } from '../../common/search';
import { assertOwnerOrAdmin, isAdmin } from '../catalogue/caller';
import { SellerDirectory } from '../catalogue/seller-directory';
import { AddressDto } from './address.dto';
import { Address, AddressDocument } from './address.schema';
import { AddressView, toAddressView } from './address.view';
import { CountryDirectory } from './country-directory';

const MAX_WINDOW = 200;
/** How many of a user's newest addresses are looked at for the default one (warehouses are skipped). */
const DEFAULT_CANDIDATES = 10;
const SEARCHABLE = ['street', 'city', 'postalCode', 'houseNumber', 'country'];

/** Addresses and their ownership: a USER reads and changes their own, an ADMIN any. */
@Injectable()
export class AddressBook {
  constructor(
    @InjectModel(Address.name) private readonly addresses: Model<Address>,
    private readonly sellers: SellerDirectory,
    private readonly countries: CountryDirectory,
  ) {}

  /** Loads fixed addresses (demo data); those whose id is there already are left as they are. */
  insertMissing(records: FixedRecord[]): Promise<void> {
    return insertMissing(this.addresses, records);
  }

  count(): Promise<number> {
    return this.addresses.estimatedDocumentCount().exec();
  }

  async create(dto: AddressDto, ownerId: string): Promise<AddressDocument> {
    if (dto.id) throw new BadRequestException('A new address must not carry an id; use saveAddress to update');
    return this.addresses.create({ ...this.fields(dto), ownerId });
  }

  /** Updates the address named by `dto.id`, or creates one when there is no id. */
  async save(dto: AddressDto, caller: Principal): Promise<AddressView> {
    if (!dto.id) return toAddressView(await this.create(dto, caller.id));
    const address = await this.find(dto.id);
    assertOwnerOrAdmin(caller, address.ownerId);
    address.set(this.fields(dto));
    return toAddressView(await address.save());
  }

  /** Readable by its owner, an ADMIN, or anyone when it is a seller's (public) shipping address. */
  async get(id: string, caller: Principal): Promise<AddressView> {
    const address = await this.find(id);
    if (!(await this.isShippingAddress(address._id))) assertOwnerOrAdmin(caller, address.ownerId);
    return toAddressView(address);
  }

  /** Addresses matching `query` literally, in the window [from, to) of the caller's own (all for an ADMIN). */
  async search(query: string, from: string, to: string, caller: Principal): Promise<AddressView[]> {
    const [start, end] = [toIndex(from, 'from'), toIndex(to, 'to')];
    if (end < start || end - start > MAX_WINDOW) {
      throw new BadRequestException(`"to" must be within ${MAX_WINDOW} after "from"`);
    }
    const filter: Record<string, unknown> = isAdmin(caller) ? {} : { ownerId: caller.id };
    if (query) filter.$or = SEARCHABLE.map((field) => ({ [field]: literalMatch(query) }));
    const found = await this.addresses
      .find(filter)
      .sort({ _id: 1 })
      .skip(start)
      .limit(end - start)
      .lean();
    return found.map(toAddressView);
  }

  async removeAndClean(id: string, caller: Principal): Promise<void> {
    const address = await this.find(id);
    assertOwnerOrAdmin(caller, address.ownerId);
    await this.deleteAndClean([address._id]);
  }

  /** All or nothing: ids that do not exist are skipped, one that is not the caller's refuses the whole call. */
  async removeMany(ids: string[], caller: Principal): Promise<void> {
    const objectIds = ids.map((id, index) => toObjectId(id, `addressesIds[${index}]`));
    const found = await this.addresses.find({ _id: { $in: objectIds } }, { ownerId: 1 }).lean();
    found.forEach((address) => assertOwnerOrAdmin(caller, address.ownerId));
    await this.deleteAndClean(found.map((address) => address._id));
  }

  /**
   * The user's default shipping address: their most recently created or saved address (so `saveAddress` makes an
   * address the default), leaving out sellers' warehouse addresses; undefined when they have none.
   */
  async defaultShippingOf(ownerId: string): Promise<AddressView | undefined> {
    const newest = await this.addresses
      .find({ ownerId: String(ownerId) })
      .sort({ updatedAt: -1 })
      .limit(DEFAULT_CANDIDATES)
      .lean();
    for (const address of newest) {
      if (!(await this.isShippingAddress(address._id))) return toAddressView(address);
    }
    return undefined;
  }

  /** The user's own address; 400 alike for a malformed, unknown or another user's id (nothing is revealed). */
  async ownedBy(id: string, ownerId: string): Promise<AddressView> {
    const unknown = new BadRequestException(`Unknown address ${String(id)}`);
    if (!isValidObjectId(id)) throw unknown;
    const address = await this.addresses.findOne({ _id: id, ownerId: String(ownerId) }).lean();
    if (!address) throw unknown;
    return toAddressView(address);
  }

  async find(id: string): Promise<AddressDocument> {
    const address = await this.addresses.findById(toObjectId(id, 'addressId'));
    if (!address) throw new NotFoundException(`Address ${id} not found`);
    return address;
  }

  /** Deletes the addresses and every seller's reference to them. */
  async deleteAndClean(ids: Types.ObjectId[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sellers.forgetAddresses(ids);
    await this.addresses.deleteMany({ _id: { $in: ids } });
  }

  private isShippingAddress(id: Types.ObjectId): Promise<boolean> {
    return this.sellers.shipsFrom(id);
  }

  private countryCode(input: string): string {
    try {
      return this.countries.resolve(input);
    } catch {
      throw new BadRequestException(`Unknown country "${input}"`);
    }
  }

  private fields(dto: AddressDto): Omit<Address, 'ownerId'> {
    return {
      houseNumber: dto.houseNumber,
      street: dto.street,
      city: dto.city,
      postalCode: dto.postalCode,
      country: this.countryCode(dto.country),
      fallIntoObjects: dto.fallIntoObjects ?? [],
    };
  }
}

function toIndex(value: string, name: string): number {
  if (!/^\d{1,9}$/.test(String(value).trim())) {
    throw new BadRequestException(`"${name}" must be a non-negative integer`);
  }
  return Number(value);
}

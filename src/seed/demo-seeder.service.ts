import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { Connection, Model, Types } from 'mongoose';
import { Profile, ProfileType } from '../auth/profiles/profile.schema';
import { PasswordHasher } from '../auth/passwords/password-hasher.service';
import { User } from '../auth/users/user.schema';
import { isDuplicateKeyError } from '../common/mongo/duplicate-key';
import { Role } from '../common/principal';
import { AppConfig } from '../config/app-config';
import { Attribute } from '../services/catalogue/attribute.schema';
import { Product } from '../services/catalogue/product.schema';
import { SellerSku } from '../services/catalogue/seller-sku.schema';
import { Seller } from '../services/catalogue/seller.schema';
import { Sku } from '../services/catalogue/sku.schema';
import { Address } from '../services/geolocation/address.schema';
import { buildDemoCatalogue, DemoCatalogue, DemoSeller, DemoUser } from './demo-data';
import { demoId } from './demo-id';
import { DEMO_WAREHOUSES } from './demo-warehouses';

/** Password of every demo account (documented in the README); demo accounts are never created in production. */
export const DEMO_PASSWORD = 'plants-demo-2024';
const MARKER = 'plant-marketplace-v1';

/**
 * Loads the plant marketplace once (DESIGN §11 `SEED_DEMO`). A marker document makes later runs no-ops, and
 * every record has a fixed id written with `$setOnInsert`, so a run interrupted half-way completes without
 * changing what was already there.
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoSeeder.name);

  constructor(
    private readonly config: AppConfig,
    private readonly hasher: PasswordHasher,
    @InjectModel(User.name) private readonly users: Model<User>,
    @InjectConnection() private readonly connection: Connection,
    @InjectModel(Attribute.name) private readonly attributes: Model<Attribute>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(Sku.name) private readonly skus: Model<Sku>,
    @InjectModel(Seller.name) private readonly sellers: Model<Seller>,
    @InjectModel(SellerSku.name) private readonly sellerSkus: Model<SellerSku>,
    @InjectModel(Address.name) private readonly addresses: Model<Address>,
    @InjectModel(Profile.name) private readonly profiles: Model<Profile>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.seedDemo) await this.seed();
  }

  /**
   * @param scale copies of the catalogue (see `buildDemoCatalogue`); 1 is the demo, larger ones are for benchmarks
   * @returns false when the demo data was already there.
   */
  async seed(scale = 1): Promise<boolean> {
    const markers = this.connection.collection<{ _id: string; at: Date }>('seed_runs');
    const marker = scale === 1 ? MARKER : `${MARKER}-x${scale}`;
    if (await markers.findOne({ _id: marker })) return false;
    const started = Date.now();
    const data = buildDemoCatalogue(scale);
    const accounts = this.config.isProduction ? Promise.resolve(new Map<string, string>()) : this.ensureUsers(data);
    await Promise.all([
      insertMissing(this.attributes, data.attributes),
      insertMissing(this.products, data.products),
      insertMissing(this.skus, data.skus),
      insertMissing(this.sellerSkus, data.sellerSkus),
    ]);
    const userIds = await accounts;
    await Promise.all([
      insertMissing(this.addresses, data.sellers.map((seller) => this.warehouse(seller, userIds))),
      insertMissing(this.profiles, profilesOf(data.users, userIds)),
      insertMissing(this.sellers, data.sellers.map((seller) => this.seller(seller, userIds))),
    ]);
    await markers.updateOne({ _id: marker }, { $setOnInsert: { at: new Date() } }, { upsert: true });
    this.logger.log(`Demo marketplace seeded in ${Date.now() - started} ms`);
    return true;
  }

  /**
   * Demo accounts, written through the users model with one shared argon2 hash: identity's `UsersService.create`
   * hashes per account, and seven concurrent hashes fill the thread pool the embedded database also needs.
   * Accounts that already exist under these usernames are reused as they are.
   */
  private async ensureUsers(data: DemoCatalogue): Promise<Map<string, string>> {
    const usernames = data.users.map((user) => user.username);
    const found = () => this.users.find({ username: { $in: usernames } }, { username: 1 }).lean();
    let accounts = await found();
    if (accounts.length < usernames.length) {
      const passwordHash = await this.hasher.hash(DEMO_PASSWORD);
      const records = data.users.map(({ username, email }) => ({
        _id: demoId(`user:${username}`),
        username,
        email,
        passwordHash,
        role: Role.USER,
        verified: true,
      }));
      await insertMissing(this.users, records);
      accounts = await found();
    }
    return new Map(accounts.map((account) => [account.username, String(account._id)]));
  }

  private warehouse(seller: DemoSeller & { _id: Types.ObjectId }, userIds: Map<string, string>) {
    return {
      _id: demoId(`address:${seller.username}`),
      ...DEMO_WAREHOUSES[seller.country],
      country: seller.country,
      fallIntoObjects: [String(seller._id)],
      ownerId: userIds.get(seller.username),
    };
  }

  private seller(seller: DemoSeller & { _id: Types.ObjectId }, userIds: Map<string, string>) {
    return {
      _id: seller._id,
      name: seller.name,
      country: seller.country,
      userId: userIds.get(seller.username),
      profileId: String(demoId(`profile:${seller.username}`)),
      shippingAddresses: [demoId(`address:${seller.username}`)],
    };
  }
}

/** Company profiles of the sellers (also without accounts, in production) and buyer profiles of the accounts. */
function profilesOf(users: DemoUser[], userIds: Map<string, string>) {
  return users
    .filter((user) => user.profile.type === ProfileType.COMPANY || userIds.has(user.username))
    .map((user) => {
      const userId = userIds.get(user.username);
      return {
        _id: demoId(`profile:${user.username}`),
        userId: userId ? new Types.ObjectId(userId) : undefined,
        ...user.profile,
        contacts: {},
      };
    });
}

/**
 * Inserts the records whose `_id` is not there yet; existing ones are left untouched (a duplicate key from a
 * concurrent seed counts as already there).
 */
async function insertMissing(model: Model<any>, records: { _id: Types.ObjectId }[]): Promise<void> {
  const existing = await model.find({ _id: { $in: records.map((record) => record._id) } }, { _id: 1 }).lean();
  const present = new Set(existing.map((record) => String(record._id)));
  const missing = records.filter((record) => !present.has(String(record._id)));
  if (missing.length === 0) return;
  try {
    await model.insertMany(missing, { ordered: false });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
}

import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection, Types } from 'mongoose';
import { PasswordHasher } from '../auth/passwords/password-hasher';
import { ProfileDirectory } from '../auth/profiles/profile-directory';
import { ProfileType } from '../auth/profiles/profile-type';
import { UserAccounts } from '../auth/users/user-accounts';
import { Role } from '../common/principal';
import { AppConfig } from '../config/app-config';
import { CatalogueImport } from '../services/catalogue/catalogue-import';
import { ReindexProgress } from '../services/catalogue/storefront-reindex';
import { AddressBook } from '../services/geolocation/address-book';
import { buildDemoCatalogue, DemoCatalogue, DemoSeller, DemoUser } from './demo-data';
import { demoId } from './demo-id';
import { DEMO_WAREHOUSES, demoWarehouseId } from './demo-warehouses';

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
    @InjectConnection() private readonly connection: Connection,
    private readonly users: UserAccounts,
    private readonly catalogue: CatalogueImport,
    private readonly addresses: AddressBook,
    private readonly profiles: ProfileDirectory,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.seedDemo) await this.seed();
  }

  /**
   * @param scale copies of the catalogue (see `buildDemoCatalogue`); 1 is the demo, larger ones are for benchmarks
   * @param progress told of each step of the load and of the storefront index's rebuild
   * @returns false when the demo data was already there.
   */
  async seed(scale = 1, progress: ReindexProgress = () => undefined): Promise<boolean> {
    const markers = this.connection.collection<{ _id: string; at: Date }>('seed_runs');
    const marker = scale === 1 ? MARKER : `${MARKER}-x${scale}`;
    if (await markers.findOne({ _id: marker })) return false;
    const started = Date.now();
    const data = buildDemoCatalogue(scale);
    const accounts = this.config.isProduction ? Promise.resolve(new Map<string, string>()) : this.ensureUsers(data);
    const { attributes, products, skus, sellerSkus: offers } = data;
    // The storefront index is built once after the whole load, not per document inserted.
    await this.catalogue.loadThenReindex(async () => {
      await this.catalogue.insertMissingCatalogue({ attributes, products, skus, offers }, progress);
      const userIds = await accounts;
      await Promise.all([
        this.addresses.insertMissing(data.sellers.map((seller) => this.warehouse(seller, userIds))),
        this.profiles.insertMissing(profilesOf(data.users, userIds)),
        this.catalogue.insertMissingSellers(data.sellers.map((seller) => this.seller(seller, userIds))),
      ]);
    }, progress);
    await markers.updateOne({ _id: marker }, { $setOnInsert: { at: new Date() } }, { upsert: true });
    this.logger.log(`Demo marketplace seeded in ${Date.now() - started} ms`);
    return true;
  }

  /**
   * Demo accounts, written through identity's import port with one shared argon2 hash: identity's `UserAccounts.create`
   * hashes per account, and seven concurrent hashes fill the thread pool the embedded database also needs.
   * Accounts that already exist under these usernames are reused as they are.
   */
  private async ensureUsers(data: DemoCatalogue): Promise<Map<string, string>> {
    const usernames = data.users.map((user) => user.username);
    let accounts = await this.users.idsByUsername(usernames);
    if (accounts.size < usernames.length) {
      const passwordHash = await this.hasher.hash(DEMO_PASSWORD);
      const records = data.users.map(({ username, email }) => ({
        _id: demoId(`user:${username}`),
        username,
        email,
        passwordHash,
        role: Role.USER,
        verified: true,
      }));
      await this.users.insertMissing(records);
      accounts = await this.users.idsByUsername(usernames);
    }
    return accounts;
  }

  private warehouse(seller: DemoSeller & { _id: Types.ObjectId }, userIds: Map<string, string>) {
    return {
      _id: demoWarehouseId(seller.username),
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
      shippingAddresses: [demoWarehouseId(seller.username)],
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

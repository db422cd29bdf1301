import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { AnyBulkWriteOperation, Connection, Model, Types } from 'mongoose';
import { Profile, ProfileType } from '../auth/profiles/profile.schema';
import { UsersService } from '../auth/users/users.service';
import { AppConfig } from '../config/app-config';
import { Attribute } from '../services/catalogue/attribute.schema';
import { Product } from '../services/catalogue/product.schema';
import { SellerSku } from '../services/catalogue/seller-sku.schema';
import { Seller } from '../services/catalogue/seller.schema';
import { Sku } from '../services/catalogue/sku.schema';
import { Address } from '../services/geolocation/address.schema';
import { buildDemoCatalogue, DemoCatalogue, DemoSeller } from './demo-data';
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
    private readonly users: UsersService,
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

  /** @returns false when the demo data was already there. */
  async seed(): Promise<boolean> {
    const markers = this.connection.collection<{ _id: string; at: Date }>('seed_runs');
    if (await markers.findOne({ _id: MARKER })) return false;
    const started = Date.now();
    const data = buildDemoCatalogue();
    const userIds = this.config.isProduction ? new Map<string, string>() : await this.ensureUsers(data);
    await insertMissing(this.attributes, data.attributes);
    await insertMissing(this.products, data.products);
    await insertMissing(this.skus, data.skus);
    await insertMissing(this.addresses, data.sellers.map((seller) => this.warehouse(seller, userIds)));
    await insertMissing(this.profiles, data.sellers.map((seller) => companyProfile(seller, userIds)));
    await insertMissing(this.sellers, data.sellers.map((seller) => this.seller(seller, userIds)));
    await insertMissing(this.sellerSkus, data.sellerSkus);
    await markers.updateOne({ _id: MARKER }, { $setOnInsert: { at: new Date() } }, { upsert: true });
    this.logger.log(`Demo marketplace seeded in ${Date.now() - started} ms`);
    return true;
  }

  /** Demo accounts through identity's service; existing accounts with these usernames are reused as they are. */
  private async ensureUsers(data: DemoCatalogue): Promise<Map<string, string>> {
    const accounts = await Promise.all(
      data.users.map(
        async ({ username, email }) =>
          (await this.users.findByUsername(username)) ??
          this.users.create({ username, email, password: DEMO_PASSWORD, verified: true }),
      ),
    );
    return new Map(accounts.map((account) => [account.username, account.id as string]));
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

function companyProfile(seller: DemoSeller, userIds: Map<string, string>) {
  const userId = userIds.get(seller.username);
  return {
    _id: demoId(`profile:${seller.username}`),
    userId: userId ? new Types.ObjectId(userId) : undefined,
    type: ProfileType.COMPANY,
    displayName: seller.name,
    country: seller.country,
    contacts: {},
  };
}

/** Inserts the records whose `_id` is not there yet; existing ones are left untouched. */
async function insertMissing(model: Model<any>, records: { _id: unknown }[]): Promise<void> {
  const operations: AnyBulkWriteOperation[] = records.map(({ _id, ...fields }) => ({
    updateOne: { filter: { _id }, update: { $setOnInsert: fields }, upsert: true },
  }));
  await model.bulkWrite(operations, { ordered: false });
}

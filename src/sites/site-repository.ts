import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Role } from '../common/principal';
import { RepositoryRegistry } from '../common/repository-registry';
import { Site } from './site.schema';

/**
 * The only code that writes the `sites` collection (checked by `test/architecture/collection-writers.spec.ts`): it
 * creates the sites the app needs, and exposes the sites (public: id and name) as repository `sites` of
 * `/request/repository`, where an ADMIN saves and deletes them.
 */
@Injectable()
export class SiteRepository implements OnModuleInit {
  constructor(
    @InjectModel(Site.name) private readonly sites: Model<Site>,
    private readonly repositories: RepositoryRegistry,
  ) {}

  onModuleInit(): void {
    this.repositories.register('sites', this.sites, Role.GUEST);
  }

  /** Creates the site with `name` unless a site with its id exists (then it is left as it is). */
  async createIfMissing(siteId: string, name: string): Promise<void> {
    await this.sites.updateOne({ _id: siteId }, { $setOnInsert: { name } }, { upsert: true }).exec();
  }

  async exists(siteId: string): Promise<boolean> {
    return (await this.sites.exists({ _id: siteId }).exec()) !== null;
  }
}

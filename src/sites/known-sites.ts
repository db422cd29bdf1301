import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { isSiteId } from './site-id';
import { DEFAULT_SITE_ID } from '../common/context-header-check';
import { Site } from './site.schema';

/** The known sites. Existence checks sit on the hot path of every bean call, so known ids are cached. */
@Injectable()
export class KnownSites implements OnModuleInit {
  private readonly knownIds = new Set<string>();

  constructor(@InjectModel(Site.name) private readonly sites: Model<Site>) {}

  /** Creates the `default` site on first start. */
  async onModuleInit(): Promise<void> {
    await this.sites
      .updateOne({ _id: DEFAULT_SITE_ID }, { $setOnInsert: { name: 'Default site' } }, { upsert: true })
      .exec();
    this.knownIds.add(DEFAULT_SITE_ID);
  }

  /** Whether the site is known to exist without asking the database (a bean call then needs no await for it). */
  isKnown(siteId: string): boolean {
    return this.knownIds.has(siteId);
  }

  async exists(siteId: string): Promise<boolean> {
    if (this.knownIds.has(siteId)) return true;
    if (!isSiteId(siteId)) return false;
    const found = await this.sites.exists({ _id: siteId }).exec();
    if (found) this.knownIds.add(siteId);
    return found !== null;
  }
}

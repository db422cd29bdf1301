import { Injectable, OnModuleInit } from '@nestjs/common';
import { isSiteId } from './site-id';
import { DEFAULT_SITE_ID } from '../common/context-header-check';
import { SiteRepository } from './site-repository';

/** The known sites. Existence checks sit on the hot path of every bean call, so known ids are cached. */
@Injectable()
export class KnownSites implements OnModuleInit {
  private readonly knownIds = new Set<string>();

  constructor(private readonly sites: SiteRepository) {}

  /** Creates the `default` site on first start. */
  async onModuleInit(): Promise<void> {
    await this.sites.createIfMissing(DEFAULT_SITE_ID, 'Default site');
    this.knownIds.add(DEFAULT_SITE_ID);
  }

  /** Whether the site is known to exist without asking the database (a bean call then needs no await for it). */
  isKnown(siteId: string): boolean {
    return this.knownIds.has(siteId);
  }

  async exists(siteId: string): Promise<boolean> {
    if (this.knownIds.has(siteId)) return true;
    if (!isSiteId(siteId)) return false;
    const found = await this.sites.exists(siteId);
    if (found) this.knownIds.add(siteId);
    return found;
  }
}

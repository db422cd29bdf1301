import { BadRequestException, Injectable } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../../config';

/** As `SitesService` accepts them: no dots or slashes, so a site id is always one safe path segment. */
const SITE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Where each site's files live under `DATA_DIR`: `sites/<site>/content` (under version control) and `sites/<site>/sitemap`. */
@Injectable()
export class SitePaths {
  constructor(private readonly config: AppConfig) {}

  contentDir(site: string): string {
    return join(this.siteDir(site), 'content');
  }

  sitemapDir(site: string): string {
    return join(this.siteDir(site), 'sitemap');
  }

  private siteDir(site: string): string {
    if (!SITE_ID.test(site)) throw new BadRequestException(`Invalid site id "${site}"`);
    return join(this.config.dataDir, 'sites', site);
  }
}

import { BadRequestException, Injectable } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../../config';
import { isSiteId } from '../../sites/site-id';

/** Where each site's files live under `DATA_DIR`: `sites/<site>/content` (under version control). */
@Injectable()
export class SitePaths {
  constructor(private readonly config: AppConfig) {}

  contentDir(site: string): string {
    return join(this.siteDir(site), 'content');
  }

  private siteDir(site: string): string {
    if (!isSiteId(site)) throw new BadRequestException(`Invalid site id "${site}"`);
    return join(this.config.dataDir, 'sites', site);
  }
}

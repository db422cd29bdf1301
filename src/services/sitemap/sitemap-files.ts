import { Injectable } from '@nestjs/common';
import { mkdir, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SitePaths } from '../site-files/site-paths';
import { SitemapFiles } from './sitemap-builder';

/** Names a site's sitemap files may have; anything else is never served. */
export const SITEMAP_FILE = /^sitemap(-\d{1,6})?\.xml$/;

/** Where the generated sitemaps of each site are kept and read from. */
@Injectable()
export class SitemapFileStore {
  constructor(private readonly paths: SitePaths) {}

  /** Replaces the site's sitemap; each file is renamed into place whole, so readers never see half a file. */
  async save(site: string, files: SitemapFiles): Promise<void> {
    const dir = this.paths.sitemapDir(site);
    await mkdir(dir, { recursive: true });
    const named: [string, Buffer][] = [...files.parts.map((part, n): [string, Buffer] => [`sitemap-${n}.xml`, part]), ['sitemap.xml', files.main]];
    for (const [name, content] of named) {
      await writeFile(join(dir, `${name}.tmp`), content);
      await rename(join(dir, `${name}.tmp`), join(dir, name));
    }
    const current = new Set(named.map(([name]) => name));
    for (const stale of (await readdir(dir)).filter((name) => SITEMAP_FILE.test(name) && !current.has(name))) {
      await unlink(join(dir, stale));
    }
  }

  /** Absolute path of a sitemap file of the site, or undefined for a name that is not one. */
  pathOf(site: string, name: string): string | undefined {
    return SITEMAP_FILE.test(name) ? join(this.paths.sitemapDir(site), name) : undefined;
  }
}

import { BadRequestException, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { Readable } from 'node:stream';
import { BinaryStore } from '../binaries/binary-store';
import { isSiteId } from '../../sites/site-id';
import { SitemapFiles } from './sitemap-builder';

/** Names a site's sitemap files may have; anything else is never served. */
export const SITEMAP_FILE = /^sitemap(-\d{1,6})?\.xml$/;

/** The GridFS bucket of generated sitemaps, one file per `<site>/<name>`: every instance serves the same. */
const BUCKET = 'sitemaps';

/** Where the generated sitemaps of each site are kept and read from: GridFS, shared by every instance. */
@Injectable()
export class SitemapFileStore {
  constructor(private readonly binaries: BinaryStore) {}

  /**
   * Replaces the site's sitemap. The parts are stored before the index that names them and a reader gets a name's
   * newest file, so readers see the old sitemap or the new one, never an index naming a missing part; the files of
   * earlier generations are removed last.
   */
  async save(site: string, files: SitemapFiles): Promise<void> {
    const generation = new Types.ObjectId().toHexString();
    const named: [string, Buffer][] = [
      ...files.parts.map((part, n): [string, Buffer] => [`sitemap-${n}.xml`, part]),
      ['sitemap.xml', files.main],
    ];
    for (const [name, content] of named) {
      await this.binaries.save(content, fileName(site, name), { site, generation }, BUCKET);
    }
    const earlier = { 'metadata.site': site, 'metadata.generation': { $ne: generation } };
    const stale = await this.binaries.list(earlier, BUCKET);
    for (const file of stale) await this.binaries.bucket(BUCKET).delete(file._id);
  }

  /** The newest sitemap file of that name, or undefined for a name that is not one or was not generated. */
  async open(site: string, name: string): Promise<Readable | undefined> {
    if (!isSiteId(site)) throw new BadRequestException(`Invalid site id "${site}"`);
    if (!SITEMAP_FILE.test(name)) return undefined;
    const [newest] = await this.binaries.list({ filename: fileName(site, name) }, BUCKET, 1);
    return newest ? this.binaries.open(newest._id, undefined, BUCKET) : undefined;
  }
}

function fileName(site: string, name: string): string {
  return `${site}/${name}`;
}

import { Readable } from 'node:stream';
import { SitemapIndexStream, SitemapItemLoose, SitemapStream, streamToPromise } from 'sitemap';

/** The protocol's limit of URLs in one sitemap file. */
export const MAX_URLS_PER_SITEMAP = 50_000;

export interface SitemapEntry {
  /** Path under the site, e.g. `/blog/roses`. */
  path: string;
  lastmod?: Date;
}

/** `sitemap.xml`, and the numbered files it indexes when the URLs do not fit one file. */
export interface SitemapFiles {
  main: Buffer;
  parts: Buffer[];
}

/**
 * Builds the sitemap of `entries` under `urlPrefix` (the public base URL). Past `maxUrls` URLs, `sitemap.xml` is an
 * index of `sitemap-<n>.xml` files, which the site serves next to it.
 */
export async function buildSitemaps(
  entries: SitemapEntry[],
  urlPrefix: string,
  maxUrls = MAX_URLS_PER_SITEMAP,
): Promise<SitemapFiles> {
  if (entries.length <= maxUrls) return { main: await urlSet(entries, urlPrefix), parts: [] };
  const parts: Buffer[] = [];
  for (let start = 0; start < entries.length; start += maxUrls)
    parts.push(await urlSet(entries.slice(start, start + maxUrls), urlPrefix));
  const index = parts.map((_, n) => ({ url: `${urlPrefix}/sitemap-${n}.xml`, lastmod: new Date().toISOString() }));
  return { main: await streamToPromise(Readable.from(index).pipe(new SitemapIndexStream())), parts };
}

function urlSet(entries: SitemapEntry[], urlPrefix: string): Promise<Buffer> {
  const items: SitemapItemLoose[] = entries.map((entry) => ({
    url: entry.path,
    lastmod: entry.lastmod?.toISOString(),
  }));
  return streamToPromise(Readable.from(items).pipe(new SitemapStream({ hostname: urlPrefix })));
}

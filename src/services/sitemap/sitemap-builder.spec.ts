import { Readable } from 'node:stream';
import { parseSitemap, parseSitemapIndex } from 'sitemap';
import { buildSitemaps } from './sitemap-builder';

describe('buildSitemaps', () => {
  const entries = ['/', '/about', '/blog/roses', '/a&b'].map((path) => ({
    path,
    lastmod: new Date('2026-01-02T03:04:05Z'),
  }));

  it('should build one urlset with absolute, escaped URLs', async () => {
    const { main, parts } = await buildSitemaps(entries, 'https://shop.example.com');
    expect(parts).toEqual([]);
    expect(main.toString()).toContain('<loc>https://shop.example.com/a&amp;b</loc>');
    const urls = (await parseSitemap(Readable.from(main))).map((item) => item.url);
    expect(urls).toEqual([
      'https://shop.example.com/',
      'https://shop.example.com/about',
      'https://shop.example.com/blog/roses',
      'https://shop.example.com/a&b',
    ]);
  });

  it('should switch to an index past the URL limit', async () => {
    const { main, parts } = await buildSitemaps(entries, 'https://shop.example.com', 3);
    expect(parts).toHaveLength(2);
    const index = (await parseSitemapIndex(Readable.from(main))).map((item) => item.url);
    expect(index).toEqual(['https://shop.example.com/sitemap-0.xml', 'https://shop.example.com/sitemap-1.xml']);
    expect(await parseSitemap(Readable.from(parts[1]))).toHaveLength(1);
  });
});

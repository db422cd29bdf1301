import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { StorefrontReader } from '../catalogue/storefront-reader';
import { Page } from '../content/page.schema';
import { Route } from '../content/route.schema';
import { isIndexable } from '../content/special-pages';
import { canonicalUri } from '../content/uri';
import { livePageFilter } from '../content/visibility';
import { SitemapEntry } from './sitemap-builder';
import { SitemapRequestDto } from './sitemap.dto';

/** Where product pages are, under a site: `/products/<slug>`. */
const PRODUCT_PAGES = '/products';

/** The published routes of a site, and the product pages, that belong in its sitemap. */
@Injectable()
export class SitemapSources {
  constructor(
    @InjectModel(Route.name) private readonly routes: Model<Route>,
    @InjectModel(Page.name) private readonly pages: Model<Page>,
    private readonly storefront: StorefrontReader,
  ) {}

  /**
   * The product pages (`<sitePrefix>/products/<slug>`, last changed when the product was) of listed products, for
   * `ALL` and `PRODUCTS`; those under an ignored path are left out.
   */
  async productEntries(request: SitemapRequestDto): Promise<SitemapEntry[]> {
    if (request.siteMapGenType !== 'ALL' && request.siteMapGenType !== 'PRODUCTS') return [];
    const ignored = (request.urlsToIgnore ?? []).map(canonicalUri).filter((uri): uri is string => uri !== undefined);
    const prefix = request.sitePrefix ?? '';
    return (await this.storefront.listedSlugs())
      .map((entry) => ({ uri: `${PRODUCT_PAGES}/${entry.slug}`, lastmod: entry.updatedAt ?? undefined }))
      .filter(({ uri }) => !ignored.some((path) => uri === path || uri.startsWith(`${path === '/' ? '' : path}/`)))
      .map(({ uri, lastmod }) => ({ path: prefix + uri, lastmod }));
  }

  /** Candidate routes (not yet checked against their pages), for the job's total. */
  async routesOf(site: string, request: SitemapRequestDto): Promise<Pick<Route, 'uri' | 'pageId'>[]> {
    if (request.siteMapGenType === 'PRODUCTS') return [];
    const byType = {
      ALL: {},
      PAGES: { containerId: { $exists: false } },
      CONTAINERS: { containerId: { $exists: true } },
    }[request.siteMapGenType];
    const ignored = (request.urlsToIgnore ?? []).map(canonicalUri).filter((uri): uri is string => uri !== undefined);
    const routes = await this.routes
      .find({ site, redirectTo: { $exists: false }, ...byType }, { uri: 1, pageId: 1 })
      .sort({ uri: 1 })
      .lean()
      .exec();
    return routes.filter(
      (route) => !ignored.some((uri) => route.uri === uri || route.uri.startsWith(`${uri === '/' ? '' : uri}/`)),
    );
  }

  /**
   * The entries of those routes whose page visitors can see and search engines may list (not the 404 page nor a
   * `noindex` one), without duplicate paths.
   */
  async entries(site: string, routes: Pick<Route, 'uri' | 'pageId'>[], sitePrefix = ''): Promise<SitemapEntry[]> {
    const live = await this.pages
      .find(
        { _id: { $in: routes.map((r) => r.pageId) }, site, ...livePageFilter() },
        { updatedAt: 1, pageUrl: 1, 'metaInfo.robots': 1 },
      )
      .lean()
      .exec();
    const updated = new Map(live.filter(isIndexable).map((page) => [page._id.toHexString(), page.updatedAt]));
    const entries = new Map<string, SitemapEntry>();
    for (const route of routes) {
      const lastmod = route.pageId ? updated.get(route.pageId) : undefined;
      if (lastmod) entries.set(sitePrefix + route.uri, { path: sitePrefix + route.uri, lastmod });
    }
    return [...entries.values()];
  }
}

import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Page } from '../content/page.schema';
import { Route } from '../content/route.schema';
import { isIndexable } from '../content/special-pages';
import { canonicalUri } from '../content/uri';
import { livePageFilter } from '../content/visibility';
import { SitemapEntry } from './sitemap-builder';
import { SitemapRequestDto } from './sitemap.dto';

/** The published routes of a site that belong in its sitemap. */
@Injectable()
export class SitemapSources {
  constructor(
    @InjectModel(Route.name) private readonly routes: Model<Route>,
    @InjectModel(Page.name) private readonly pages: Model<Page>,
  ) {}

  /** Candidate routes (not yet checked against their pages), for the job's total. */
  async routesOf(site: string, request: SitemapRequestDto): Promise<Pick<Route, 'uri' | 'pageId'>[]> {
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

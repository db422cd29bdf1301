import { NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { KnownSites } from '../../sites/known-sites';
import { Article, ContentContainer } from '../content/container.schema';
import { ContainerView, Stored, toContainerView, toPageView } from '../content/content-views';
import { Page } from '../content/page.schema';
import { Route } from '../content/route.schema';
import { LOGIN_PAGE, NOT_FOUND_PAGE } from '../content/special-pages';
import { canonicalUri } from '../content/uri';
import { isReleased, livePageFilter } from '../content/visibility';
import { SPARoute } from './sp-route';

/** Resolves request URIs of a site to what the single-page application shows, in the request's language. */
@Bean('routerServiceImpl', Role.ADMIN)
export class RouterService {
  constructor(
    @InjectModel(Route.name) private readonly routes: Model<Route>,
    @InjectModel(Page.name) private readonly pages: Model<Page>,
    @InjectModel(ContentContainer.name) private readonly containers: Model<ContentContainer>,
    private readonly sites: KnownSites,
  ) {}

  @Exposed(['String', 'String'])
  async routeAsSinglePageApplication(site: string, requestURI: string): Promise<SPARoute> {
    await this.assertSite(site);
    const [path, query] = splitQuery(requestURI);
    const uri = canonicalUri(path);
    if (!uri) return this.notFound(site, path);
    if (uri !== path) return this.redirect(site, uri, uri + query);
    const route = await this.routes.findOne({ site, lang: lang(), uri }).lean().exec();
    if (!route) return this.notFound(site, uri);
    if (route.redirectTo) return this.redirect(site, uri, route.redirectTo + query);
    const page = await this.livePage(site, { _id: route.pageId });
    if (!page) return this.notFound(site, uri);
    const container = route.containerId ? await this.liveContainer(site, route.containerId) : null;
    return { site, lang: lang(), uri, status: 200, page: toPageView(page), container, redirect: null };
  }

  @Exposed(['String'])
  async getLoginPage(site: string): Promise<string> {
    await this.assertSite(site);
    return this.specialPageUri(site, LOGIN_PAGE);
  }

  @Exposed(['String'])
  async getPage404(site: string): Promise<string> {
    await this.assertSite(site);
    return this.specialPageUri(site, NOT_FOUND_PAGE);
  }

  private async specialPageUri(site: string, special: { pageUrl: string; fallback: string }): Promise<string> {
    const page = await this.livePage(site, { pageUrl: special.pageUrl });
    if (!page) return special.fallback;
    const route = await this.routes
      .findOne({ site, lang: lang(), pageId: page._id.toHexString(), redirectTo: { $exists: false } })
      .sort({ createdAt: 1 })
      .lean()
      .exec();
    return route?.uri ?? special.fallback;
  }

  private async notFound(site: string, uri: string): Promise<SPARoute> {
    const page = await this.livePage(site, { pageUrl: NOT_FOUND_PAGE.pageUrl });
    return {
      site,
      lang: lang(),
      uri,
      status: 404,
      page: page ? toPageView(page) : null,
      container: null,
      redirect: null,
    };
  }

  private redirect(site: string, uri: string, to: string): SPARoute {
    return { site, lang: lang(), uri, status: 301, page: null, container: null, redirect: to };
  }

  private livePage(site: string, filter: Record<string, unknown>): Promise<Stored<Page> | null> {
    return this.pages
      .findOne({ ...filter, site, lang: lang(), ...livePageFilter() })
      .lean<Stored<Page>>()
      .exec();
  }

  /** The published container with its published, released articles. */
  private async liveContainer(site: string, containerId: string): Promise<ContainerView | null> {
    const container = await this.containers
      .findOne({ _id: containerId, site, lang: lang(), published: true })
      .lean<Stored<ContentContainer>>()
      .exec();
    if (!container) return null;
    const articles = (container.articles as unknown as Stored<Article>[]).filter(
      (a) => a.published && isReleased(a.releaseDate),
    );
    return toContainerView(container, articles);
  }

  private async assertSite(site: string): Promise<void> {
    if (!(await this.sites.exists(site))) throw new NotFoundException(`Site "${site}" not found`);
  }
}

function lang(): string {
  return RequestContext.current().lang;
}

function splitQuery(requestURI: string): [string, string] {
  const at = requestURI.search(/[?#]/);
  return at < 0 ? [requestURI, ''] : [requestURI.slice(0, at), requestURI.slice(at)];
}

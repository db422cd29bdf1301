import { BadRequestException, Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { RequestHandlerRegistry, StompRequestHandler } from '../../realtime/requests/request-handler-registry';
import { RouterService } from '../router/router.service';
import { SPARoute } from '../router/sp-route';
import { renderPage } from './page-template';

const MAX_PATH = 2048;

/** The route of a BasicRequestMessage's `path` in the request's site and language (only what visitors may see). */
function routeOf(router: RouterService, message: Record<string, unknown>): Promise<SPARoute> {
  const { path } = message;
  if (typeof path !== 'string' || path.length === 0 || path.length > MAX_PATH)
    throw new BadRequestException('path must be a URI path');
  return router.routeAsSinglePageApplication(RequestContext.current().site, path);
}

/** `/request/json`: the page data (an SPARoute) for `path`, answered on the `json` topics. */
@Injectable()
export class PageJsonHandler implements StompRequestHandler, OnModuleInit {
  readonly channel = 'json';

  constructor(
    private readonly router: RouterService,
    private readonly registry: RequestHandlerRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register('/request/json', this);
  }

  handle(message: Record<string, unknown>): Promise<SPARoute> {
    return routeOf(this.router, message);
  }
}

/** `/request/render`: the page for `path` rendered to HTML, answered on the `render` topics. */
@Injectable()
export class PageRenderHandler implements StompRequestHandler, OnModuleInit {
  readonly channel = 'render';

  constructor(
    private readonly router: RouterService,
    private readonly registry: RequestHandlerRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register('/request/render', this);
  }

  async handle(
    message: Record<string, unknown>,
  ): Promise<{ uri: string; status: number; redirect: string | null; html: string | null }> {
    const route = await routeOf(this.router, message);
    return {
      uri: route.uri,
      status: route.status,
      redirect: route.redirect,
      html: route.status === 301 ? null : renderPage(route),
    };
  }
}

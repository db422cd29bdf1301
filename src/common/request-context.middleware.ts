import type { NextFunction, Response } from 'express';
import type { AuthenticatedRequest } from './authenticated-request';
import { DEFAULT_SITE_ID } from './context-header-check';
import { RequestContext, RequestContextData } from './request-context';

/** Outside the unified call the context headers are optional; these stand in for missing ones. */
const DEFAULT_LANG = 'en';

/** A request's context; the principal is read when asked, as it is known only once the guard has run. */
function contextOf(request: AuthenticatedRequest): RequestContextData {
  return {
    requestId: request.id,
    lang: request.header('lang-context') ?? DEFAULT_LANG,
    site: request.header('site-context') ?? DEFAULT_SITE_ID,
    get principal() {
      return request.principal ?? null;
    },
  };
}

/**
 * Runs the rest of every HTTP request (guards, pipes, handler, filters) inside one `RequestContext`, created once.
 * Installed after the body parsers: their stream callbacks would otherwise lose the async context.
 */
export function runInRequestContext(request: AuthenticatedRequest, _: Response, next: NextFunction): void {
  RequestContext.run(contextOf(request), next);
}

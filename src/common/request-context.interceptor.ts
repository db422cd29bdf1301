import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { DEFAULT_SITE_ID } from '../sites/sites.service';
import { RequestContext } from './request-context';

/** Outside the unified call the context headers are optional; these stand in for missing ones. */
const DEFAULT_LANG = 'en';

/**
 * Runs every HTTP handler inside a `RequestContext` (request id, `Lang-Context`, `Site-Context`, principal).
 * An interceptor rather than a middleware: it runs after the guard has set the principal, and the body parser's
 * stream callbacks would otherwise lose the async context.
 */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const data = {
      requestId: request.id,
      lang: request.header('lang-context') ?? DEFAULT_LANG,
      site: request.header('site-context') ?? DEFAULT_SITE_ID,
      principal: request.principal ?? null,
    };
    return new Observable((subscriber) => RequestContext.run(data, () => next.handle().subscribe(subscriber)));
  }
}

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { logAccess } from './access-log';
import { assignRequestId } from './request-id';

type Middleware = (request: Request, response: Response, next: NextFunction) => void;

/**
 * The headers a middleware sets when they never depend on the request (helmet's defaults do not), captured once by
 * running it against a recording response.
 */
export function staticHeadersOf(middleware: Middleware): Map<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  };
  middleware({} as Request, recorder as unknown as Response, () => undefined);
  return headers;
}

/**
 * The first middleware of every request: the request id and helmet's security headers, set in one step, and the
 * access log line (`logAccess`).
 * CORS runs only for requests that carry an `Origin` (the others cannot be cross-origin); `Vary: Origin` is static.
 * Installed before the body parser so that even a 413 carries them.
 */
export function httpFront(logger: Logger, cors: RequestHandler, varyOnOrigin: boolean): Middleware {
  const headers = staticHeadersOf(helmet());
  if (varyOnOrigin) headers.set('Vary', 'Origin');
  return (request, response, next) => {
    response.setHeaders(headers);
    assignRequestId(request, response);
    logAccess(logger, request as Request & { id: string }, response);
    if (request.headers.origin === undefined) next();
    else cors(request, response, next);
  };
}

import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { performance } from 'node:perf_hooks';

/**
 * One access log line per request, built when the response is done: at `info` (`error` for 5xx, as pino-http
 * did), with the request id, method, URL, status and time in ms; never headers, so no credentials. No work at all
 * when even `error` is off.
 */
export function logAccess(logger: Logger, request: Request & { id: string }, response: Response): void {
  if (!logger.isLevelEnabled('error')) return;
  const start = performance.now();
  response.once('close', () => {
    const level = response.statusCode >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const line = {
      req: { id: request.id, method: request.method, url: request.originalUrl },
      res: { statusCode: response.statusCode },
      responseTime: Math.round(performance.now() - start),
    };
    logger[level](line, response.writableFinished ? 'request completed' : 'request aborted');
  });
}

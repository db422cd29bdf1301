import type { Params } from 'nestjs-pino';
import pino, { Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { RequestContext } from './request-context';

/**
 * Structured JSON logs. Lines logged while a request is handled carry its id (`req.id`) through the request
 * context; the access log line is written by `httpFront` (see `logAccess`).
 */
export function createAppLogger(config: AppConfig): Logger {
  return pino({ level: config.logLevel, mixin: requestIdOfContext });
}

function requestIdOfContext(): object {
  const context = RequestContext.find();
  return context ? { req: { id: context.requestId } } : {};
}

/** nestjs-pino as Nest's logger over `logger`; its per-request pino-http middleware is bound to no route. */
export function loggerOptions(logger: Logger): Params {
  return { pinoHttp: { logger }, forRoutes: [] };
}

import type { Params } from 'nestjs-pino';
import pino, { Logger } from 'pino';
import pretty from 'pino-pretty';
import { AppConfig } from '../config/app-config';
import { RequestContext } from './request-context';

/**
 * Structured JSON logs, or the same records as one line each for people (`LOG_FORMAT=pretty`, the development
 * default). Lines logged while a request is handled carry its id (`req.id`) through the request context; the access
 * log line is written by `httpFront` (see `logAccess`).
 */
export function createAppLogger(config: AppConfig): Logger {
  const options = { level: config.logLevel, mixin: requestIdOfContext };
  // In-process and synchronous: no worker thread, and nothing lost when the process stops at once.
  return config.logFormat === 'pretty' ? pino(options, pretty(PRETTY_OPTIONS)) : pino(options);
}

/** One line per record, the Nest context in front of the message; other fields stay, inline. */
const PRETTY_OPTIONS = {
  sync: true,
  singleLine: true,
  ignore: 'pid,hostname,context',
  messageFormat: '{if context}{context}: {end}{msg}',
};

function requestIdOfContext(): object {
  const context = RequestContext.find();
  return context ? { req: { id: context.requestId } } : {};
}

/** nestjs-pino as Nest's logger over `logger`; its per-request pino-http middleware is bound to no route. */
export function loggerOptions(logger: Logger): Params {
  return { pinoHttp: { logger }, forRoutes: [] };
}

import type { Params } from 'nestjs-pino';
import pino, { LogFn, Logger } from 'pino';
import pretty from 'pino-pretty';
import { AppConfig } from '../config/app-config';
import { RequestContext } from './request-context';

/**
 * Structured JSON logs, or the same records as one line each for people (`LOG_FORMAT=pretty`, the default in
 * development when standard output is a terminal). Lines logged while a request is handled carry its id (`req.id`) through the request context; the access
 * log line is written by `httpFront` (see `logAccess`).
 */
export function createAppLogger(config: AppConfig): Logger {
  const options = { level: config.logLevel, mixin: requestIdOfContext, hooks: { logMethod: wiringAtDebug } };
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

/** Nest's account of wiring the app, one line per module, controller and route: 151 of the 160 start-up lines. */
const NEST_WIRING_CONTEXTS = new Set<unknown>(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Logs Nest's wiring at debug instead of info, so that the start-up log says what the app did, not how Nest built it. */
function wiringAtDebug(this: Logger, args: Parameters<LogFn>, method: LogFn, level: number): void {
  const [fields] = args as unknown[];
  const context = typeof fields === 'object' && fields !== null ? (fields as { context?: unknown }).context : undefined;
  if (level === pino.levels.values.info && NEST_WIRING_CONTEXTS.has(context)) return this.debug(...args);
  method.apply(this, args);
}

function requestIdOfContext(): object {
  const context = RequestContext.find();
  return context ? { req: { id: context.requestId } } : {};
}

/** nestjs-pino as Nest's logger over `logger`; its per-request pino-http middleware is bound to no route. */
export function loggerOptions(logger: Logger): Params {
  return { pinoHttp: { logger }, forRoutes: [] };
}

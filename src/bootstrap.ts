import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import cors from 'cors';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { httpFront } from './common/http-front';
import { createAppLogger } from './common/logger.options';
import { runInRequestContext } from './common/request-context.middleware';
import { refuseDeepBodies } from './common/json-depth';
import { EmbeddedDatabase } from './database/embedded-database';
import { refuseWithoutDatabase } from './database/refuse-without-database';
import { keepRawBodyOfSignedWebhooks } from './common/raw-body';
import { AppConfig, ConfigValidationError } from './config/app-config';
import { setupConsole } from './console/console-site';
import { setupApiDocs } from './docs/api-docs';
import { ShutdownDrain } from './health/shutdown-drain';
import { SockJsServer } from './realtime/transport/sockjs-server';
import { StompWsAdapter } from './realtime/transport/stomp-ws.adapter';
import { AltPaymentProvider } from './services/alt-payments/alt-payment.provider';
import { LogisticsProvider } from './services/delivery/logistics.provider';
import { CardPaymentProvider } from './services/payments';

/**
 * Builds the whole application (not yet listening) from `env`; tests reuse it.
 * @param extraModules further modules, e.g. beans that only tests register
 * @throws ConfigValidationError when the environment is invalid
 */
export async function createApp(
  env: Record<string, string | undefined> = process.env,
  extraModules: Type[] = [],
): Promise<NestExpressApplication> {
  const config = AppConfig.fromEnvironment(env);
  const logger = createAppLogger(config);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, extraModules, logger), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  const origins = config.corsOrigins.length > 0 ? config.corsOrigins : false;
  app.use(httpFront(logger, cors({ origin: origins, credentials: true }), origins !== false));
  const drain = app.get(ShutdownDrain);
  app.use(drain.middleware());
  app.useBodyParser('json', { limit: config.jsonBodyLimitBytes, verify: keepRawBodyOfSignedWebhooks });
  app.useBodyParser('urlencoded', { extended: true }); // Nest's default, here so that it runs before the context
  app.use(refuseDeepBodies(config.jsonMaxDepth));
  app.use(refuseWithoutDatabase(app.get(EmbeddedDatabase, { strict: false })));
  app.use(runInRequestContext);
  closeOnSignals(app, drain, config.shutdownDrainMs);
  app.useWebSocketAdapter(new StompWsAdapter(app, (socket) => drain.refusedUpgrade(socket)));
  app.get(SockJsServer, { strict: false }).followDrain(drain);
  setupApiDocs(app);
  setupConsole(app);
  return app;
}

/** Starts the server; an invalid configuration or a failed start ends the process with exit code 1. */
export async function bootstrap(): Promise<void> {
  try {
    const app = await createApp();
    const config = app.get(AppConfig);
    boundShutdown(app.get(Logger), config.shutdownTimeoutMs);
    await app.listen(config.port, config.host);
    app.get(Logger).log(`Listening on ${await app.getUrl()}`, 'Bootstrap');
    app.get(Logger).log(`Providers in use: ${providersInUse(app)}`, 'Bootstrap');
  } catch (error) {
    // These two say what to do in their message; a stack would only hide it.
    const told = error instanceof ConfigValidationError || (error as Error).name === 'StoreDamagedError';
    const reason = told ? (error as Error).message : `Start-up failed: ${(error as Error).stack}`;
    process.stderr.write(`${reason}\n`);
    process.exit(1);
  }
}

/**
 * On SIGTERM or SIGINT: the drain first (`ShutdownDrain`: `drainMs` of refusing new requests with a 503 while still
 * listening, so that a proxy retries them elsewhere and stops sending here), then Nest's close: the shutdown hooks
 * hand back jobs and webhook posts, STOMP sessions are closed (clients reconnect, to another instance behind a
 * proxy), the HTTP server stops accepting and closes its idle connections once the requests under way are answered,
 * then the database. Then the process ends by the signal. Later signals meanwhile are ignored (`boundShutdown`
 * bounds it all); the listeners go when the app is closed otherwise (tests close their apps themselves).
 */
function closeOnSignals(app: NestExpressApplication, drain: ShutdownDrain, drainMs: number): void {
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
  let received = false;
  const close = async (signal: NodeJS.Signals) => {
    drain.begin();
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    await app.close();
    process.kill(process.pid, signal);
  };
  const shutDown = (signal: NodeJS.Signals) => {
    if (received) return;
    received = true;
    close(signal).catch((error: unknown) => {
      app.get(Logger).error(`Shutdown on ${signal} failed: ${(error as Error).stack}`, 'Bootstrap');
      process.exit(1);
    });
  };
  signals.forEach((signal) => process.on(signal, shutDown));
  drain.onClosed(() => signals.forEach((signal) => process.removeListener(signal, shutDown)));
}

/**
 * Whatever a shutdown hook waits for, the process ends within `timeoutMs` of the signal.
 */
function boundShutdown(logger: Logger, timeoutMs: number): void {
  const exitLate = (signal: NodeJS.Signals) => {
    const timer = setTimeout(() => {
      logger.error(`Shutdown on ${signal} took longer than ${timeoutMs} ms; exiting anyway`, 'Bootstrap');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
  };
  process.once('SIGTERM', exitLate);
  process.once('SIGINT', exitLate);
}

/** The implementation bound to each external provider, so that the log shows when a sandbox is running. */
function providersInUse(app: NestExpressApplication): string {
  const providers = {
    'card payments': CardPaymentProvider,
    logistics: LogisticsProvider,
    'alternative payments': AltPaymentProvider,
  };
  return Object.entries(providers)
    .map(([kind, token]) => `${kind} ${app.get<{ name: string }>(token, { strict: false }).name}`)
    .join(', ');
}

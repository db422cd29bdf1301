import { WireListener } from '../../packages/embedded-mongo/dist/worker/listener';
import { createApp } from '../../src/bootstrap';
import { EmbeddedDatabase } from '../../src/database/embedded-database';
import { benchEnv, listenOnFreePort } from '../bench-server';

/**
 * The app on a free port, its embedded database in memory; prints `{url, databaseUri}` as one JSON line (the
 * database URI for the load client) and runs until SIGTERM. Started by `run.ts`. With SHARED_LOOP=true the
 * database runs on the app's own event loop instead of its worker thread (the server's listener started here,
 * reached through MONGODB_URI), as before the worker existed: the control of the benchmark.
 */
async function sharedLoopDatabase(): Promise<Record<string, string>> {
  const listener = await WireListener.start({ port: 0 }, '127.0.0.1');
  return { MONGODB_URI: `mongodb://127.0.0.1:${listener.port}/content-commerce` };
}

async function main(): Promise<void> {
  const app = await createApp(benchEnv(process.env.SHARED_LOOP === 'true' ? await sharedLoopDatabase() : {}));
  const url = await listenOnFreePort(app);
  const databaseUri = app.get(EmbeddedDatabase, { strict: false }).tcpUri;
  process.stdout.write(`${JSON.stringify({ url, databaseUri })}\n`);
}

void main();

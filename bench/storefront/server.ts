import { createApp } from '../../src/bootstrap';
import { benchEnv, listenOnFreePort } from '../bench-server';

/**
 * The app with the demo marketplace, on a free port, data in memory; prints `{url}` as one JSON line and runs until
 * SIGTERM. Started by `run.ts`.
 */
async function main(): Promise<void> {
  const url = await listenOnFreePort(await createApp(benchEnv({ SEED_DEMO: 'true' })));
  process.stdout.write(`${JSON.stringify({ url })}\n`);
}

void main();

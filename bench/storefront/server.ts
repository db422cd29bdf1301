import { createApp } from '../../src/bootstrap';
import { DemoSeeder } from '../../src/seed/demo-seeder.service';
import { benchEnv, listenOnFreePort } from '../bench-server';

/**
 * The app with the demo marketplace (`SEED_SCALE` copies of its catalogue, default 1) and `FACET_CACHE_ENTRIES`, on
 * a free port, data in memory; prints `{url}` as one JSON line and runs until SIGTERM. Started by `run.ts`.
 */
async function main(): Promise<void> {
  const facetCacheEntries = process.env.FACET_CACHE_ENTRIES ?? ''; // empty: the default size
  const app = await createApp(benchEnv({ SEED_DEMO: 'false', FACET_CACHE_ENTRIES: facetCacheEntries }));
  await app.init();
  await app.get(DemoSeeder).seed(Number(process.env.SEED_SCALE ?? '1'));
  const url = await listenOnFreePort(app);
  process.stdout.write(`${JSON.stringify({ url })}\n`);
}

void main();

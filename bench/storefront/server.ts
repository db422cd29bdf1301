import { DemoSeeder } from '../../src/seed/demo-seeder';
import { createApp } from '../../src/bootstrap';
import { benchEnv, listenOnFreePort } from '../bench-server';

/**
 * The app with the demo marketplace (`SEED_SCALE` copies of its catalogue, default 1) on a free port, its database
 * in memory unless `EMBEDDED_DB_IN_MEMORY=false` (then the files under `DATA_DIR`, seeded only if not yet); prints
 * `{url}` as one JSON line and runs until SIGTERM. `STOREFRONT_CACHE_MB`, when set, is passed on (`--cache-mb`), and so is
 * `EMBEDDED_DB_MAX_HEAP_MB`. Started by `run.ts`, which also drives the trading mode.
 */
async function main(): Promise<void> {
  const inMemory = process.env.EMBEDDED_DB_IN_MEMORY ?? 'true';
  const cacheMb = process.env.STOREFRONT_CACHE_MB;
  const maxHeapMb = process.env.EMBEDDED_DB_MAX_HEAP_MB;
  const app = await createApp(
    benchEnv({
      SEED_DEMO: 'false',
      EMBEDDED_DB_IN_MEMORY: inMemory,
      ...(cacheMb === undefined ? {} : { STOREFRONT_CACHE_MB: cacheMb }),
      ...(maxHeapMb === undefined ? {} : { EMBEDDED_DB_MAX_HEAP_MB: maxHeapMb }),
    }),
  );
  await app.init();
  await app.get(DemoSeeder).seed(Number(process.env.SEED_SCALE ?? '1'));
  const url = await listenOnFreePort(app);
  process.stdout.write(`${JSON.stringify({ url })}\n`);
}

void main();

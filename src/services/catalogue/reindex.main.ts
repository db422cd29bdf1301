import { parseArgs } from 'node:util';
import { createApp } from '../../bootstrap';
import { printedProgress, StorefrontReindex } from './storefront-reindex';

/**
 * `npm run reindex [-- --restart]`: rebuilds the storefront index of the configured database, printing progress;
 * run again after being killed, it resumes from its last checkpoint (`--restart`: from the start).
 */
async function reindex(): Promise<void> {
  const { values } = parseArgs({ options: { restart: { type: 'boolean', default: false } } });
  const app = await createApp({ ...process.env, SEED_DEMO: 'false' });
  await app.init();
  const started = Date.now();
  await app.get(StorefrontReindex).run(printedProgress(), values.restart);
  await app.close();
  process.stdout.write(`Storefront index rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

void reindex();

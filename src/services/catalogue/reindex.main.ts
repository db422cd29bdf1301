import { parseArgs } from 'node:util';
import { createApp } from '../../bootstrap';
import { printedProgress, StorefrontReindex } from './storefront-reindex';

/**
 * `npm run reindex [-- --restart]`: rebuilds the storefront index of the configured database, printing progress;
 * run again after being killed, it resumes from its last checkpoint (`--restart`: from the start).
 */
async function reindex(): Promise<void> {
  const { values } = parseArgs({ options: { restart: { type: 'boolean', default: false } } });
  // The database's thread at the app's priority: a batch command's long writes held it at a lowered one past the
  // driver's server monitor time-out on a busy machine, and the command failed.
  const app = await createApp({ ...process.env, SEED_DEMO: 'false', EMBEDDED_DB_LOWER_PRIORITY: 'false' });
  await app.init();
  const started = Date.now();
  await app.get(StorefrontReindex).run(printedProgress(), values.restart);
  await app.close();
  process.stdout.write(`Storefront index rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

void reindex();

import { parseArgs } from 'node:util';
import { createApp } from '../bootstrap';
import { printedProgress } from '../services/catalogue/storefront-reindex';
import { DemoSeeder } from './demo-seeder';

/**
 * `npm run seed [-- --scale 100]`: loads the demo marketplace into the configured database (a no-op when it is
 * there), then builds the storefront index, printing progress; run again after being killed, it completes the load
 * and resumes the index where it stopped. `--scale` repeats the catalogue that many times (benchmarks).
 */
async function seed(): Promise<void> {
  const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' } } });
  const scale = Number(values.scale);
  if (!Number.isInteger(scale) || scale < 1) throw new Error('--scale must be a positive integer');
  // The database's thread at the app's priority: a batch command's long writes held it at a lowered one past the
  // driver's server monitor time-out on a busy machine, and the command failed.
  const app = await createApp({ ...process.env, SEED_DEMO: 'false', EMBEDDED_DB_LOWER_PRIORITY: 'false' });
  await app.init();
  const started = Date.now();
  const seeded = await app.get(DemoSeeder).seed(scale, printedProgress());
  await app.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    seeded ? `Demo marketplace loaded in ${seconds} s\n` : 'Demo marketplace already present; nothing changed\n',
  );
}

void seed();

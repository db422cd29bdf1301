import { parseArgs } from 'node:util';
import { createApp } from '../bootstrap';
import { DemoSeeder } from './demo-seeder.service';

/**
 * `npm run seed [-- --scale 100]`: loads the demo marketplace into the configured database (a no-op when it is
 * there); `--scale` repeats the catalogue that many times (benchmarks).
 */
async function seed(): Promise<void> {
  const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' } } });
  const scale = Number(values.scale);
  if (!Number.isInteger(scale) || scale < 1) throw new Error('--scale must be a positive integer');
  const app = await createApp({ ...process.env, SEED_DEMO: 'false' });
  await app.init();
  const seeded = await app.get(DemoSeeder).seed(scale);
  await app.close();
  process.stdout.write(seeded ? 'Demo marketplace loaded\n' : 'Demo marketplace already present; nothing changed\n');
}

void seed();

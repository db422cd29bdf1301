import { Logger } from '@nestjs/common';
import { createApp } from '../bootstrap';
import { DemoSeeder } from './demo-seeder.service';

/** `npm run seed`: loads the demo marketplace into the configured database (a no-op when it is there). */
async function seed(): Promise<void> {
  const app = await createApp({ ...process.env, SEED_DEMO: 'false' });
  await app.init();
  const seeded = await app.get(DemoSeeder).seed();
  Logger.log(seeded ? 'Demo marketplace loaded' : 'Demo marketplace already present; nothing changed', 'Seed');
  await app.close();
}

void seed();

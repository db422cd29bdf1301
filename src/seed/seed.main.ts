import { createApp } from '../bootstrap';
import { DemoSeeder } from './demo-seeder.service';

/** `npm run seed`: loads the demo marketplace into the configured database (a no-op when it is there). */
async function seed(): Promise<void> {
  const app = await createApp({ ...process.env, SEED_DEMO: 'false' });
  await app.init();
  const seeded = await app.get(DemoSeeder).seed();
  await app.close();
  process.stdout.write(seeded ? 'Demo marketplace loaded\n' : 'Demo marketplace already present; nothing changed\n');
}

void seed();

import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/bootstrap';
import { adminToken, benchEnv, listenOnFreePort } from '../bench-server';
import { announce } from './announce';
import { ProductBenchModule } from './product.module';

/**
 * This product with the demo data (seeded at start, as `SEED_DEMO` does), data in memory, logs at `LOG_LEVEL`
 * (default silent) on stdout; announces `{url, token}` (an ADMIN token) on fd 3. Started by `run.ts`.
 */
async function main(): Promise<void> {
  const env = benchEnv({
    SEED_DEMO: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: randomBytes(16).toString('hex'),
  });
  const url = await listenOnFreePort(await createApp(env, [ProductBenchModule]));
  announce({ url, token: await adminToken(url, env.ADMIN_USERNAME, env.ADMIN_PASSWORD) });
}

void main();

import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/bootstrap';
import { adminToken, benchEnv, listenOnFreePort } from '../bench-server';
import { BenchModule } from '../gateway/bench.module';

/**
 * The app with the gateway bench's module and the bean rate limit counted where `REDIS_URL` says (in-process when
 * unset); prints `{url, token}` as one JSON line and runs until SIGTERM. Started by `run.ts`.
 */
async function main(): Promise<void> {
  const env = benchEnv({
    SEED_DEMO: 'false',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: randomBytes(16).toString('hex'),
    REDIS_URL: process.env.REDIS_URL ?? '',
    REDIS_KEY_PREFIX: `bench:${randomBytes(6).toString('hex')}:`,
  });
  const url = await listenOnFreePort(await createApp(env, [BenchModule]));
  const token = await adminToken(url, env.ADMIN_USERNAME, env.ADMIN_PASSWORD);
  process.stdout.write(`${JSON.stringify({ url, token })}\n`);
}

void main();

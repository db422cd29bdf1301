import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { createApp } from '../../src/bootstrap';

/**
 * The app with the demo marketplace, on a free port, data in memory; prints `{url}` as one JSON line and runs until
 * SIGTERM. Started by `run.ts`.
 */
async function main(): Promise<void> {
  const env = {
    NODE_ENV: 'test',
    DATA_DIR: process.env.DATA_DIR ?? '',
    EMBEDDED_DB_IN_MEMORY: 'true',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'true',
    JWT_SECRET: randomBytes(32).toString('hex'),
    BEAN_RATE_LIMIT: String(1e9),
  };
  const app = await createApp(env);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
}

void main();

import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { createApp } from '../../src/bootstrap';
import { BenchModule } from './bench.module';

/**
 * The app with the bench module, on a free port, data under the given DATA_DIR; prints `{url, token}` as one JSON
 * line and runs until SIGTERM. Started by `run.ts`.
 */
async function main(): Promise<void> {
  const env = {
    NODE_ENV: 'test',
    DATA_DIR: process.env.DATA_DIR ?? '',
    EMBEDDED_DB_IN_MEMORY: 'true',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: randomBytes(16).toString('hex'),
    BEAN_RATE_LIMIT: String(1e9),
  };
  const app = await createApp(env, [BenchModule]);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const token = await adminToken(url, env.ADMIN_USERNAME, env.ADMIN_PASSWORD);
  process.stdout.write(`${JSON.stringify({ url, token })}\n`);
}

/** Tokens must name an existing user: log in as the admin made at first start. */
async function adminToken(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`admin login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

void main();

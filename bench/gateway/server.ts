import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/bootstrap';
import { benchEnv, listenOnFreePort } from '../bench-server';
import { BenchModule } from './bench.module';

/**
 * The app with the bench module, on a free port, data under the given DATA_DIR; prints `{url, token}` as one JSON
 * line and runs until SIGTERM. Started by `run.ts`.
 */
async function main(): Promise<void> {
  const env = benchEnv({
    SEED_DEMO: 'false',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: randomBytes(16).toString('hex'),
  });
  const url = await listenOnFreePort(await createApp(env, [BenchModule]));
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

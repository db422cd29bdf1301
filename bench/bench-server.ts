import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * The environment every bench server starts the app with: database in memory (files under the DATA_DIR `run.ts`
 * made), no logs, no bean rate limit, a fresh JWT secret; `extra` adds or overrides variables.
 */
export function benchEnv<Extra extends Record<string, string>>(extra: Extra) {
  return {
    NODE_ENV: 'test',
    DATA_DIR: process.env.DATA_DIR ?? '',
    EMBEDDED_DB_IN_MEMORY: 'true',
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    BEAN_RATE_LIMIT: String(1e9),
    ...extra,
  };
}

/** Listens on a free port of 127.0.0.1; @returns the app's base URL. */
export async function listenOnFreePort(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Tokens must name an existing user: log in as the admin made at first start. */
export async function adminToken(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`admin login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

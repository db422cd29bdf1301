import { Type } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { Role } from '../../src/common/principal';
import { AppConfig } from '../../src/config/app-config';
import { createApp } from '../../src/bootstrap';

export interface TestAppOptions {
  /** Environment variables on top of the test defaults (in-memory database, silent logs, no demo data). */
  env?: Record<string, string>;
  /** Further modules, e.g. beans that only a test registers. */
  imports?: Type[];
}

export interface TokenOptions {
  username?: string;
  /**
   * The `sub` claim; a fresh id by default. An account id (24 hex digits) is checked like a real login: the account
   * must exist with this username and role, else the token is refused (401).
   */
  id?: string;
}

export interface BeanCallOptions {
  token?: string;
  lang?: string;
  site?: string;
  accept?: string;
}

export interface TestApp {
  url: string;
  http: TestAgent;
  app: NestExpressApplication;
  config: AppConfig;
  /** A signed access token for `role`. */
  tokenFor(role: Role.USER | Role.ADMIN, options?: TokenOptions): string;
  /** `POST /api/v1/bean/request` with `Lang-Context: en` and `Site-Context: default` unless told otherwise. */
  callBean(beanId: string, functionName: string, args: unknown[], options?: BeanCallOptions): request.Test;
  stop(): Promise<void>;
}

/** Test defaults; `env` is hermetic on purpose (the caller's shell environment does not leak in). */
function testEnvironment(dataDir: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    EMBEDDED_DB_IN_MEMORY: 'true',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...overrides,
  };
}

/** Starts the whole application on a free port with an in-memory embedded database. Call `stop()` after. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-test-'));
  const app = await createApp(testEnvironment(dataDir, options.env), options.imports);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const jwt = app.get(JwtService);

  return {
    url,
    http: request.agent(url),
    app,
    config: app.get(AppConfig),
    tokenFor: (role, { username = `test-${role.toLowerCase()}`, id = randomUUID() } = {}) =>
      jwt.sign({ sub: id, username, role, jti: randomUUID() }),
    callBean: (beanId, functionName, args, { token, lang = 'en', site = 'default', accept } = {}) => {
      const call = request(url).post('/api/v1/bean/request').set('Lang-Context', lang).set('Site-Context', site);
      if (token) call.set('Authorization', `Bearer ${token}`);
      if (accept) call.set('Accept', accept);
      return call.send({ beanId, functionName, args });
    },
    stop: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

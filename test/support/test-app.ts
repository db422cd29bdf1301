import { Type } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { getModelToken } from '@nestjs/mongoose';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Model } from 'mongoose';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { PasswordHasher } from '../../src/auth/passwords/password-hasher';
import { defaultCode, isErrorCode, ERROR_CODES } from '../../src/common/errors/error-codes';
import { User } from '../../src/auth/users/user.schema';
import { Role } from '../../src/common/principal';
import { AppConfig } from '../../src/config/app-config';
import { createApp } from '../../src/bootstrap';

export interface TestAppOptions {
  /**
   * Environment variables on top of the test defaults (in-memory database, silent logs, no demo data, the database's
   * thread at the app's priority); `undefined` drops a test default, leaving the product's own.
   */
  env?: Record<string, string | undefined>;
  /** Further modules, e.g. beans that only a test registers. */
  imports?: Type[];
}

type TestRole = Role.USER | Role.ADMIN;

export interface TokenOptions {
  /** A user made with `createUser`; the default user of the role when absent. */
  username?: string;
  /** With `username`: an account the test created itself (the server checks it exists with that name and role). */
  id?: string;
}

export interface NewTestUser {
  username: string;
  role: TestRole;
  /** An ObjectId (24 hex digits) for tests that need the id before the app starts; a fresh one by default. */
  id?: string;
}

export interface TestUser {
  id: string;
  /** As stored: trimmed and lower-cased. */
  username: string;
  role: TestRole;
  token: string;
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
  /**
   * A signed access token of a real user: `test-admin` or `test-user` (made at start) unless told otherwise.
   * @throws Error for a username that `createUser` did not make with this role
   */
  tokenFor(role: TestRole, options?: TokenOptions): string;
  /** Creates an enabled, verified account (password `TEST_PASSWORD`) and signs a token for it. */
  createUser(user: NewTestUser): Promise<TestUser>;
  /** `POST /api/v1/bean/request` with `Lang-Context: en` and `Site-Context: default` unless told otherwise. */
  callBean(beanId: string, functionName: string, args: unknown[], options?: BeanCallOptions): request.Test;
  stop(): Promise<void>;
}

/** Test defaults; `env` is hermetic on purpose (the caller's shell environment does not leak in). */
function testEnvironment(dataDir: string, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    EMBEDDED_DB_IN_MEMORY: 'true',
    // The app shares its thread with the test driving it, so a lowered priority would shield it from nothing but the
    // test's own queries; on a machine loaded by other work it starves the database's thread (test/README.md).
    EMBEDDED_DB_LOWER_PRIORITY: 'false',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...overrides,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The password of every user the harness makes. */
export const TEST_PASSWORD = 'test-password-1';

/** Starts the whole application on a free port with an in-memory embedded database. Call `stop()` after. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-test-'));
  const app = await createApp(testEnvironment(dataDir, options.env), options.imports);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const users = new TestUsers(app);
  try {
    await users.addDefault(Role.ADMIN);
    await users.addDefault(Role.USER);
  } catch (error: unknown) {
    await app.close();
    throw error;
  }

  return {
    url,
    http: request.agent(url).use((call: request.Test) => call.expect(assertErrorCode)),
    app,
    config: app.get(AppConfig),
    tokenFor: (role, tokenOptions) => users.tokenFor(role, tokenOptions),
    createUser: (user) => users.create(user),
    callBean: (beanId, functionName, args, options) => callBeanAt(url, beanId, functionName, args, options),
    stop: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** {@link TestApp.callBean} on the server at `url`, e.g. one running in a child process. */
export function callBeanAt(
  url: string,
  beanId: string,
  functionName: string,
  args: unknown[],
  { token, lang = 'en', site = 'default', accept }: BeanCallOptions = {},
): request.Test {
  const call = request(url).post('/api/v1/bean/request').set('Lang-Context', lang).set('Site-Context', site);
  if (token) call.set('Authorization', `Bearer ${token}`);
  if (accept) call.set('Accept', accept);
  return call.send({ beanId, functionName, args }).expect(assertErrorCode);
}

/**
 * Every error answer the tests receive through `http` and `callBean` must carry a stable `code` listed for its
 * status: an error that leaves without one fails the test that received it.
 */
export function assertErrorCode(response: request.Response): void {
  if (response.status < 400) return;
  const body: unknown = Buffer.isBuffer(response.body) ? parsedOrUndefined(response.body) : response.body;
  const code: unknown = (body as { code?: unknown } | undefined)?.code;
  // A status the table does not list answers with the fallback of its class (BAD_REQUEST, INTERNAL_ERROR).
  const listed =
    isErrorCode(code) && (ERROR_CODES[code].status === response.status || code === defaultCode(response.status));
  if (!listed) {
    throw new Error(`A ${response.status} without a code listed for it: ${String(response.text).slice(0, 300)}`);
  }
}

/** A body a test read as bytes (its own parser): the error body is JSON all the same. */
function parsedOrUndefined(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The accounts the harness made, by username, and tokens for them. */
class TestUsers {
  private readonly byName = new Map<string, Omit<TestUser, 'token'>>();
  private readonly model: Model<User>;
  private readonly jwt: JwtService;
  /** One argon2 hash (about 40 ms) shared by every user of the app. */
  private passwordHash?: Promise<string>;

  constructor(private readonly app: NestExpressApplication) {
    this.model = app.get<Model<User>>(getModelToken(User.name));
    this.jwt = app.get(JwtService);
  }

  async create({ username, role, id }: NewTestUser): Promise<TestUser> {
    this.passwordHash ??= this.app.get(PasswordHasher).hash(TEST_PASSWORD);
    const passwordHash = await this.passwordHash;
    const email = `${username.trim().toLowerCase()}@users.test`;
    const doc = await this.model.create({
      ...(id ? { _id: id } : {}),
      username,
      email,
      passwordHash,
      role,
      verified: true,
    });
    const user = { id: String(doc._id), username: doc.username, role };
    this.byName.set(user.username, user);
    return { ...user, token: this.sign(user) };
  }

  /** Found again when the database outlives an app (restart tests). */
  async addDefault(role: TestRole): Promise<void> {
    const username = defaultUsername(role);
    const existing = await this.model.findOne({ username }).exec();
    if (!existing) await this.create({ username, role });
    else this.byName.set(username, { id: String(existing._id), username, role });
  }

  tokenFor(role: TestRole, { username, id }: TokenOptions = {}): string {
    if (id !== undefined && username !== undefined) return this.sign({ id, username, role });
    const name = (username ?? defaultUsername(role)).trim().toLowerCase();
    const user = this.byName.get(name);
    if (user?.role !== role || (id !== undefined && id !== user.id)) {
      throw new Error(`No ${role} test user "${name}": make it first with await t.createUser({ username, role })`);
    }
    return this.sign(user);
  }

  private sign({ id, username, role }: Omit<TestUser, 'token'>): string {
    return this.jwt.sign({ sub: id, username, role, jti: randomUUID() });
  }
}

function defaultUsername(role: TestRole): string {
  return `test-${role.toLowerCase()}`;
}

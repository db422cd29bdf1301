import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';

const ROOT = join(__dirname, '..');
const COPIED = [
  'src',
  'schematics',
  'nest-cli.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.spec.json',
  'package.json',
  'jest.config.js',
];
const run = promisify(execFile);

// eslint-disable-next-line no-control-regex -- ESC starts the colour codes it removes
const ANSI_COLOUR = /\x1b\[[\d;]*m/g;

/** Runs a Node script in `cwd`; resolves with its uncoloured output even when it exits non-zero (tsc with errors). */
async function node(cwd: string, args: string[]): Promise<string> {
  const output = await run(process.execPath, args, { cwd, maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: unknown) => error as { stdout?: string; stderr?: string },
  );
  return `${output.stdout ?? ''}${output.stderr ?? ''}`.replace(ANSI_COLOUR, '');
}

/** Starts the built app on a free port; `url` resolves from its "Listening on" log line. */
function startBuiltApp(cwd: string, env: Record<string, string>): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, ['dist/main.js'], { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
  const url = new Promise<string>((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Listening on (http:\/\/[\d.:]+)/.exec(output)?.[1];
      if (found) resolve(found);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => reject(new Error(`app exited with ${code}: ${output.slice(-4000)}`)));
  });
  return { child, url };
}

describe('bean schematic', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  const secret = randomBytes(32).toString('hex');
  const adminPassword = randomBytes(16).toString('hex');

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ccb-schematic-'));
    for (const entry of COPIED) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    // jest.config.js names these test roots; the copy has no tests of its own there.
    mkdirSync(join(dir, 'test'));
    mkdirSync(join(dir, 'packages/client/test'), { recursive: true });
  });

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('should generate a bean module that builds, starts and answers through the gateway', async () => {
    const generated = await node(dir, [
      'node_modules/@nestjs/cli/bin/nest.js',
      'g',
      '-c',
      './schematics/collection.json',
      'bean',
      'product-reviews',
    ]);
    expect(generated).toContain('UPDATE src/app.module.ts');
    for (const file of ['module', 'service', 'service.spec']) {
      expect(existsSync(join(dir, `src/services/product-reviews/product-reviews.${file}.ts`))).toBe(true);
    }
    const appModule = readFileSync(join(dir, 'src/app.module.ts'), 'utf8');
    expect(appModule).toContain(
      "import { ProductReviewsModule } from './services/product-reviews/product-reviews.module';",
    );
    expect(appModule).toMatch(/imports: \[[^\]]*ProductReviewsModule,?\s*\]/);

    const spec = await node(dir, ['node_modules/jest/bin/jest.js', 'src/services/product-reviews']);
    expect(spec).toMatch(/Tests:\s+1 passed, 1 total/);

    // tsc emits despite type errors; only errors in what the schematic wrote would fail this test.
    const diagnostics = await node(dir, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json']);
    expect(diagnostics.split('\n').filter((line) => /product-reviews|app\.module/.test(line))).toEqual([]);

    const app = startBuiltApp(dir, {
      PORT: '0',
      DATA_DIR: join(dir, 'data'),
      EMBEDDED_DB_IN_MEMORY: 'true',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      JWT_SECRET: secret,
      ADMIN_PASSWORD: adminPassword,
    });
    server = app.child;
    const url = await app.url;
    const login = await request(url)
      .post('/api/v1/auth/token')
      .send({ username: 'admin', password: adminPassword })
      .expect(200);
    const token = (login.body as { token: string }).token;
    const call = () =>
      request(url)
        .post('/api/v1/bean/request')
        .set('Lang-Context', 'en')
        .set('Site-Context', 'default')
        .send({ beanId: 'productReviewsServiceImpl', functionName: 'hello', args: ['world'] });
    await call().expect(401);
    const res = await call().set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.body).toBe('Hello, world');
  }, 450_000);
});

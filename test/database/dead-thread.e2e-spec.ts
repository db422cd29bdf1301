import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** Generous for a loaded machine; the point is that the process exits on its own instead of hanging. */
const EXIT_BOUND_MS = 15_000;

interface Child {
  process: ChildProcessWithoutNullStreams;
  output: () => string;
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

function startApp(dataDir: string): Child {
  const child = spawn(process.execPath, ['test/support/run-ts.js', 'test/database/support/dead-thread-main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', SEED_DEMO: 'false', DATA_DIR: dataDir },
  });
  let output = '';
  const waiters: { pattern: RegExp; resolve: (match: RegExpExecArray) => void }[] = [];
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(output);
      if (!match) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(match);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    process: child,
    output: () => output,
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const match = pattern.exec(output);
        if (match) return resolve(match);
        waiters.push({ pattern, resolve });
        void exited.then((code) => reject(new Error(`exited (${code}) before ${pattern}: ${output}`)));
      }),
  };
}

function expectServiceUnavailable(body: Record<string, unknown>, path: string): void {
  expect(body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, error: 'Service Unavailable', path });
  expect(typeof body.message).toBe('string');
  expect(typeof body.requestId).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at /);
}

describe('The embedded database thread dies', () => {
  it('fails liveness and requests with a 503, logs why and exits with code 1 within a bound', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ccb-dead-thread-'));
    const app = startApp(dataDir);
    try {
      const url = (await app.waitFor(/listening (\S+)/))[1];
      expect((await fetch(`${url}/api/v1/health/live`)).status).toBe(200);

      app.process.stdin.write('kill\n');
      expect((await app.waitFor(/killed (\d+)/))[1]).toBe('1');
      let timer: NodeJS.Timeout | undefined;
      const exitBound = new Promise<'timeout'>(
        (resolve) => (timer = setTimeout(() => resolve('timeout'), EXIT_BOUND_MS)),
      );

      const [live, bean] = await Promise.all([
        fetch(`${url}/api/v1/health/live`),
        fetch(`${url}/api/v1/bean/request`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ bean: 'catalogue', method: 'list', args: [] }),
        }),
      ]);
      expect(live.status).toBe(503);
      expectServiceUnavailable((await live.json()) as Record<string, unknown>, '/api/v1/health/live');
      expect(bean.status).toBe(503);
      expectServiceUnavailable((await bean.json()) as Record<string, unknown>, '/api/v1/bean/request');

      expect(await Promise.race([app.exited, exitBound])).toBe(1);
      clearTimeout(timer);
      expect(app.output()).toMatch(
        /Embedded database thread died \(embedded MongoDB server thread died.*\); exiting in \d+ ms/,
      );
    } finally {
      app.process.kill('SIGKILL');
      await app.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

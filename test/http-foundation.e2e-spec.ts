import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { sign } from 'jsonwebtoken';
import { Role } from '../src/common/principal';
import { ProbeModule } from './support/probe.beans';
import { startTestApp, TestApp } from './support/test-app';

const ROOT = join(__dirname, '..');

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sub: 'u-1',
    username: 'someone',
    role: Role.ADMIN,
    jti: 'j-1',
    exp: Math.floor(Date.now() / 1000) + 60,
    ...overrides,
  };
}

/** Starts `src/main.ts` as a real process with a hermetic environment. */
function startServerProcess(env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['test/support/run-ts.js', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
}

function waitForExit(
  child: ChildProcessWithoutNullStreams,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

describe('HTTP foundation', () => {
  describe('with the default limits', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ imports: [ProbeModule], env: { CORS_ORIGINS: 'https://shop.example.com' } });
    });

    afterAll(async () => {
      await t.stop();
    });

    it('should answer a body over 1 MiB with 413 in the error shape', async () => {
      const res = await t.http
        .post('/api/v1/bean/request')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ beanId: 'probe', functionName: 'map', args: ['x'.repeat(1024 * 1024)] }))
        .expect(413);
      expect(res.body).toMatchObject({
        error: 'Payload Too Large',
        status: 413,
        requestId: res.headers['x-request-id'],
      });
    });

    it('should allow CORS for listed origins only', async () => {
      const preflight = (origin: string) =>
        t.http.options('/api/v1/bean/request').set('Origin', origin).set('Access-Control-Request-Method', 'POST');
      const allowed = await preflight('https://shop.example.com');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example.com');
      const refused = await preflight('https://evil.example.com');
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('should send helmet security headers', async () => {
      const res = await t.callBean('probe', 'nothing', []);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-powered-by']).toBeUndefined();
    });

    it('should send the security headers and a request id on every kind of response', async () => {
      const responses = [
        await t.callBean('probe', 'nothing', []).expect(200),
        await t.http.get('/no/such/route').expect(404),
        await t.http.get('/api/v1/probe/admin').expect(401),
        await t.http.post('/api/v1/bean/request').set('Content-Type', 'application/json').send('{"broken').expect(400),
        await t.http.options('/api/v1/bean/request').set('Origin', 'https://shop.example.com').expect(204),
      ];
      for (const res of responses) {
        expect(res.headers).toMatchObject({
          'content-security-policy': expect.stringContaining("default-src 'self'"),
          'strict-transport-security': expect.stringContaining('max-age='),
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'SAMEORIGIN',
          'cross-origin-opener-policy': 'same-origin',
          'referrer-policy': 'no-referrer',
          'x-request-id': expect.stringMatching(/^[\w.-]{1,64}$/),
          vary: expect.stringContaining('Origin'),
        });
        expect(res.headers['x-powered-by']).toBeUndefined();
      }
      expect(new Set(responses.map((res) => res.headers['x-request-id'])).size).toBe(responses.length);
    });

    it('should answer a listed origin on the actual request, not only the preflight', async () => {
      const res = await t.callBean('probe', 'nothing', []).set('Origin', 'https://shop.example.com').expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('https://shop.example.com');
      expect(res.headers['access-control-allow-credentials']).toBe('true');
    });

    it('should keep the raw body for signed webhooks only', async () => {
      await t.http.post('/api/v1/probe/raw-body').send({ some: 'json' }).expect(200, { rawBody: false });
    });

    it('should enforce @Roles on REST routes: 401, 403, 200', async () => {
      await t.http.get('/api/v1/probe/admin').expect(401);
      const refused = await t.http
        .get('/api/v1/probe/admin')
        .set('Authorization', `Bearer ${t.tokenFor(Role.USER)}`)
        .expect(403);
      expect(refused.body.error).toBe('Access denied');
      await t.http
        .get('/api/v1/probe/admin')
        .set('Authorization', `Bearer ${t.tokenFor(Role.ADMIN)}`)
        .expect(200, { ok: true });
    });

    describe('bearer tokens', () => {
      const refuse = (authorization: string) =>
        t.http.get('/api/v1/probe/admin').set('Authorization', authorization).expect(401);

      it('should refuse alg none', () =>
        refuse(`Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims())}.`));
      it('should refuse another secret', () =>
        refuse(`Bearer ${sign(claims(), 'another-secret-of-enough-length!!', { algorithm: 'HS256' })}`));
      it('should refuse HS512 even with the right secret', () =>
        refuse(`Bearer ${sign(claims(), t.config.jwtSecret, { algorithm: 'HS512' })}`));
      it('should refuse an expired token', () =>
        refuse(`Bearer ${sign(claims({ exp: Math.floor(Date.now() / 1000) - 10 }), t.config.jwtSecret)}`));
      it('should refuse a token without exp', () => {
        const { exp: _exp, ...withoutExp } = claims();
        return refuse(`Bearer ${sign(withoutExp, t.config.jwtSecret, { noTimestamp: true })}`);
      });
      it('should refuse an unknown role', () => refuse(`Bearer ${sign(claims({ role: 'ROOT' }), t.config.jwtSecret)}`));
      it('should refuse a malformed Authorization header', () => refuse(`Token ${t.tokenFor(Role.ADMIN)}`));
    });
  });

  describe('rate limiting of bean calls', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ imports: [ProbeModule], env: { BEAN_RATE_LIMIT: '3' } });
    });

    afterAll(async () => {
      await t.stop();
    });

    it('should answer 429 above the limit, counted per principal', async () => {
      const { token } = await t.createUser({ username: 'busy-user', role: Role.USER });
      for (let i = 0; i < 3; i++) await t.callBean('probe', 'nothing', [], { token }).expect(200);
      const limited = await t.callBean('probe', 'nothing', [], { token }).expect(429);
      expect(limited.body).toMatchObject({ error: 'Too Many Requests', status: 429 });
      await t.callBean('probe', 'nothing', [], { token: t.tokenFor(Role.USER) }).expect(200);
    });
  });

  describe('process', () => {
    let dataDir: string;

    beforeEach(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'ccb-process-'));
    });

    afterEach(() => {
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('should stop at start-up naming every bad variable', async () => {
      const result = await waitForExit(startServerProcess({ PORT: 'abc', LOG_LEVEL: 'loud', DATA_DIR: dataDir }));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Invalid configuration');
      expect(result.stderr).toMatch(/- PORT: /);
      expect(result.stderr).toMatch(/- LOG_LEVEL: /);
    }, 360_000);

    it('should write one access log line at info per request, with its request id and no credentials', async () => {
      const env = {
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        EMBEDDED_DB_IN_MEMORY: 'true',
        SEED_DEMO: 'false',
      };
      const child = startServerProcess({ ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const lineWith = (text: string) => stdout.split('\n').find((line) => line.includes(text));
      const eventually = async <T>(probe: () => T | undefined): Promise<T> => {
        for (let i = 0; i < 1200 && child.exitCode === null; i++) {
          const value = probe();
          if (value !== undefined) return value;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`gave up; stdout so far:\n${stdout}`);
      };
      try {
        const url = await eventually(() => /Listening on (\S+?)"/.exec(stdout)?.[1]);
        // Nest's wiring, a line per module, controller and route, is logged at debug: not in the start-up log.
        expect(stdout).toContain('"context":"NestApplication"');
        for (const wiring of ['InstanceLoader', 'RoutesResolver', 'RouterExplorer']) {
          expect(stdout).not.toContain(`"context":"${wiring}"`);
        }
        const headers = { 'X-Request-Id': 'access-log-probe', Authorization: 'Bearer not-a-real-token-123' };
        expect((await fetch(`${url}/api/v1/no-such-route`, { headers })).status).toBe(404);
        const entry = JSON.parse(await eventually(() => lineWith('"access-log-probe"'))) as Record<string, any>;
        expect(entry).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 404 } });
        expect(entry.req).toMatchObject({ id: 'access-log-probe', method: 'GET', url: '/api/v1/no-such-route' });
        expect(typeof entry.responseTime).toBe('number');
        expect(stdout).not.toContain('not-a-real-token-123');

        // The embedded database's operator log reaches the app's log, naming the connection.
        const dbPort = Number(
          await eventually(() => /Embedded database listening on mongodb:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]),
        );
        const socket = createConnection(dbPort, '127.0.0.1', () => socket.end(Buffer.from([5, 0, 0, 0])));
        socket.on('error', () => undefined);
        const dbLine = JSON.parse(await eventually(() => lineWith('unreadable message framing'))) as Record<
          string,
          any
        >;
        expect(dbLine).toMatchObject({ level: 40, context: 'EmbeddedDatabase' });
        expect(dbLine.msg).toMatch(
          /^conn\d+: closing connection: unreadable message framing \(invalid message length 5\)$/,
        );
      } finally {
        child.kill('SIGKILL');
      }
    }, 360_000);

    it('should shut down on SIGTERM (pretty logs: lines for people, not JSON)', async () => {
      // Development's default on a terminal; the pipe here would get JSON without LOG_FORMAT (app-config.spec).
      const child = startServerProcess({
        PORT: '0',
        DATA_DIR: dataDir,
        EMBEDDED_DB_IN_MEMORY: 'true',
        SEED_DEMO: 'false',
        LOG_FORMAT: 'pretty',
      });
      const exited = waitForExit(child);
      let listeningLine = '';
      const listening = new Promise<boolean>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          listeningLine ||=
            chunk
              .toString()
              .split('\n')
              .find((line) => line.includes('Listening on')) ?? '';
          if (listeningLine) resolve(true);
        });
        child.on('exit', () => resolve(false));
      });
      try {
        expect(await listening).toBe(true);
        expect(listeningLine).toMatch(/INFO.*Listening on http:\/\/127\.0\.0\.1:\d+/);
        expect(() => JSON.parse(listeningLine)).toThrow();
        child.kill('SIGTERM');
        // Nest closes the app, then re-raises the signal so the process ends as "killed by SIGTERM".
        expect((await exited).signal).toBe('SIGTERM');
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }, 360_000);
  });
});

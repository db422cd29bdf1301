import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../support/test-app';

/** The app's store (DATA_DIR/db) on a 64 MiB tmpfs; mounting needs root, and without it the test is skipped, saying so. */
function mountTmpfs(path: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', path], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Fills the file system of `dir` with a file but for about `spare` bytes. The app writes meanwhile (its scheduled
 * tasks, lease renewals), so the space measured may be gone when the file is written: then measured and written again.
 */
function fillLeaving(dir: string, spare: number): void {
  const filler = join(dir, 'filler');
  for (let attempt = 1; ; attempt++) {
    const { bavail, bsize } = statfsSync(dir);
    try {
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - spare)));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC' || attempt === 10) throw error;
      rmSync(filler, { force: true });
    }
  }
}

const probe = mkdtempSync(join(tmpdir(), 'ccb-tmpfs-probe-'));
const supported = mountTmpfs(probe);
if (supported) execFileSync('umount', [probe]);
rmSync(probe, { recursive: true });
if (!supported) console.warn('full-disk e2e test skipped: mounting a tmpfs (mount -t tmpfs) is not permitted here');
const diskIt = supported ? it : it.skip;

describe('the app on a full disk', () => {
  diskIt(
    'answers writes 507 in the error shape while reads go on, and takes writes again once space is freed',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ccb-disk-full-'));
      const dbPath = join(dataDir, 'db');
      mkdirSync(dbPath);
      mountTmpfs(dbPath);
      let t: TestApp | undefined;
      try {
        t = await startTestApp({
          env: { DATA_DIR: dataDir, EMBEDDED_DB_IN_MEMORY: 'false', AUTH_EMAIL_FLOWS: 'true' },
        });
        const register = (name: string) =>
          request(t!.url)
            .post('/api/v1/auth/register')
            .send({ username: name, email: `${name}@example.com`, password: 'full-disk-password' });
        expect((await register('before')).status).toBe(201);

        fillLeaving(dbPath, 16 * 1024);
        let refused: request.Response | undefined;
        for (let attempt = 0; attempt < 2000 && !refused; attempt++) {
          const response = await register(`user${attempt}`);
          if (response.status !== 201) refused = response;
        }
        expect({ status: refused?.status, body: refused?.body as unknown }).toMatchObject({ status: 507 });
        expect(refused?.body).toEqual({
          code: 'INSUFFICIENT_STORAGE',
          error: 'Insufficient Storage',
          message: 'The database is out of disk space: nothing was changed',
          status: 507,
          path: '/api/v1/auth/register',
          timestamp: expect.any(String),
          requestId: expect.any(String),
        });

        const login = await request(t.url)
          .post('/api/v1/auth/token')
          .send({ username: 'test-user', password: TEST_PASSWORD });
        expect(login.status).toBe(200);
        expect((await request(t.url).get('/api/v1/health')).status).toBe(200);

        rmSync(join(dbPath, 'filler'));
        expect((await register('after')).status).toBe(201);
      } finally {
        // Before the space is freed (a failed test) the app's last writes cannot be made durable: stopping says so.
        await t?.stop().catch(() => undefined);
        execFileSync('umount', [dbPath]);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});

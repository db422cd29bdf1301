import { execFileSync } from 'node:child_process';
import { rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { failure, startHarness, tempDir, type AnyDoc, type Harness } from './helpers';

/**
 * A real full disk: the store on a 64 MiB tmpfs (the journal preallocates 16 MiB of it) and a filler file taking all
 * but 1 MiB of the rest. Mounting needs root (CAP_SYS_ADMIN); where it is refused these tests are skipped and say so.
 */
function mountTmpfs(path: string, size = '64m'): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', path], { stdio: 'pipe' });
}

function unmount(path: string): void {
  execFileSync('umount', [path], { stdio: 'pipe' });
}

function tmpfsSupported(): boolean {
  const dir = tempDir();
  try {
    mountTmpfs(dir.path);
    unmount(dir.path);
    return true;
  } catch {
    return false;
  } finally {
    dir.remove();
  }
}

const supported = tmpfsSupported();
if (!supported) console.warn('full-disk tests skipped: mounting a tmpfs (mount -t tmpfs) is not permitted here');
const diskIt = supported ? it : it.skip;

describe('a full disk', () => {
  diskIt(
    'refuses writes with OutOfDiskSpace while reads go on, and takes writes again once space is freed',
    async () => {
      const mountPoint = tempDir();
      mountTmpfs(mountPoint.path);
      const dbPath = join(mountPoint.path, 'db');
      const filler = join(mountPoint.path, 'filler');
      let harness: Harness | undefined = await startHarness({ dbPath });
      try {
        const docs = harness.client.db('shop').collection<AnyDoc>('orders');
        const { bavail, bsize } = statfsSync(mountPoint.path);
        writeFileSync(filler, Buffer.alloc(bavail * bsize - 1024 * 1024));

        // Documents of 20 kB: the journal fills within about 800, and the move into lmdb needs space it lacks.
        let refused: Awaited<ReturnType<typeof failure>> | undefined;
        let attempted = 0;
        while (!refused && attempted < 2000) {
          const insert = docs.insertOne({ _id: attempted++, pad: 'p'.repeat(20_000) });
          refused = await insert.then(
            () => undefined,
            () => failure(insert),
          );
        }
        expect(refused).toMatchObject({ code: 14031, codeName: 'OutOfDiskSpace' });
        expect(refused?.message).toMatch(/^write refused: the disk holding the store is full \(\d+ bytes free; /);

        // The server thread lives: reads and commands are answered, further writes are refused the same way.
        await expect(harness.client.db('admin').command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
        expect(await docs.countDocuments()).toBe(attempted);
        expect((await failure(docs.updateOne({ _id: 0 }, { $set: { seen: true } }))).codeName).toBe('OutOfDiskSpace');

        rmSync(filler);
        await docs.insertOne({ _id: 'after', pad: 'a' });
        await harness.stop();
        harness = await startHarness({ dbPath });
        const reopened = harness.client.db('shop').collection<AnyDoc>('orders');
        expect(await reopened.countDocuments()).toBe(attempted + 1);
        expect(await reopened.findOne({ _id: 0 }, { projection: { seen: 1 } })).toEqual({ _id: 0, seen: true });
      } finally {
        await harness?.stop();
        unmount(mountPoint.path);
        mountPoint.remove();
      }
    },
  );

  diskIt(
    'keeps the server thread alive through repeated failed commits on a disk the store filled itself',
    async () => {
      const mountPoint = tempDir();
      mountTmpfs(mountPoint.path, '20m');
      const harness = await startHarness({ dbPath: join(mountPoint.path, 'db') });
      const died: Error[] = [];
      harness.server.on('error', (error: Error) => died.push(error));
      harness.server.on('log', () => undefined);
      try {
        const docs = harness.client.db('shop').collection<AnyDoc>('orders');
        let refusals = 0;
        for (let attempt = 0; attempt < 1500 && refusals < 30; attempt++) {
          const insert = docs.insertOne({ _id: attempt, pad: 'p'.repeat(20_000) });
          if (
            await insert.then(
              () => false,
              () => true,
            )
          ) {
            refusals++;
            expect((await failure(insert)).codeName).toBe('OutOfDiskSpace');
          }
        }
        expect(refusals).toBe(30);
        await expect(harness.client.db('admin').command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
        expect(died).toEqual([]);
      } finally {
        await harness.stop().catch(() => undefined); // its last writes cannot be made durable on this disk
        unmount(mountPoint.path);
        mountPoint.remove();
      }
    },
  );
});

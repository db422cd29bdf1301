import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedMongoServer } from '../src';
import { failure, startHarness, tempDir, type AnyDoc } from './helpers';

/** Sucrase's transform with each file's output cached on disk (the server threads' hook, `src/worker/spawn.ts`). */
const TS_HOOK = join(__dirname, '..', 'scripts', 'cached-ts-hook.js');
const SRC = join(__dirname, '..', 'src');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the package's command-line programs from its TypeScript source in a process of its own. */
function runTool(program: 'cli.ts' | 'db-tool.ts', args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['-r', TS_HOOK, join(SRC, program), ...args], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Deterministic bytes (mulberry32), so a failing case is the same case on every run. */
function seededBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let index = 0; index < length; index++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    bytes[index] = ((mixed ^ (mixed >>> 14)) >>> 0) & 0xff;
  }
  return bytes;
}

/** A store made through the server: documents on many pages, some large enough for lmdb's overflow pages. */
async function makeStore(dbPath: string): Promise<void> {
  const harness = await startHarness({ dbPath });
  const docs = harness.client.db('shop').collection<AnyDoc>('orders');
  await docs.createIndex({ customer: 1 });
  await docs.insertMany(
    Array.from({ length: 600 }, (_, i) => ({ _id: i, customer: `c${i % 17}`, note: 'n'.repeat(300) })),
  );
  await docs.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: 1000 + i, big: 'b'.repeat(20_000) })));
  await docs.deleteMany({ _id: { $lt: 100 } });
  await harness.stop();
}

function digest(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of ['data.mdb', 'journal.wal']) {
    const path = join(dir, name);
    if (existsSync(path)) files[name] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return files;
}

function rewrite(path: string, change: (bytes: Buffer) => Buffer): void {
  writeFileSync(path, change(readFileSync(path)));
}

const damages: { name: string; damage: (dir: string) => void; problem: RegExp }[] = [
  {
    name: 'data.mdb with its first 8 KiB zeroed',
    damage: (dir) => rewrite(join(dir, 'data.mdb'), (bytes) => bytes.fill(0, 0, 8192)),
    problem: /data\.mdb: meta page 0: not an lmdb meta page/,
  },
  {
    name: 'data.mdb with both meta pages bit-flipped',
    damage: (dir) =>
      rewrite(join(dir, 'data.mdb'), (bytes) =>
        Buffer.from(bytes.map((byte, at) => (at < 8192 ? ~byte & 0xff : byte))),
      ),
    problem: /data\.mdb: meta page 0: not an lmdb meta page/,
  },
  {
    name: 'data.mdb truncated to half',
    damage: (dir) => truncateSync(join(dir, 'data.mdb'), Math.floor(readFileSync(join(dir, 'data.mdb')).length / 2)),
    problem: /data\.mdb: page \d+ of .*: beyond the end of the file \(\d+ pages\): truncated/,
  },
  {
    name: 'data.mdb truncated to 0 bytes',
    damage: (dir) => truncateSync(join(dir, 'data.mdb'), 0),
    problem: /data\.mdb: the file is empty \(0 bytes\)/,
  },
  {
    name: 'data.mdb of 7 bytes',
    damage: (dir) => writeFileSync(join(dir, 'data.mdb'), Buffer.from('garbage')),
    problem: /data\.mdb: the file is 7 bytes, too short for its meta pages/,
  },
  {
    name: 'data.mdb with random bytes over every page after the meta pages',
    damage: (dir) =>
      rewrite(join(dir, 'data.mdb'), (bytes) => (seededBytes(bytes.length - 8192, 25).copy(bytes, 8192), bytes)),
    problem: /data\.mdb: page \d+ of /,
  },
  {
    name: 'data.mdb missing from a store',
    damage: (dir) => rmSync(join(dir, 'data.mdb')),
    problem: /data\.mdb: the file is missing/,
  },
  {
    name: 'journal.wal truncated',
    damage: (dir) => truncateSync(join(dir, 'journal.wal'), 8192),
    problem: /journal\.wal: it is 8192 bytes, shorter than its 16777216 \(truncated\)/,
  },
  {
    name: 'journal.wal with a foreign header',
    damage: (dir) => rewrite(join(dir, 'journal.wal'), (bytes) => (bytes.write('not ours', 0), bytes)),
    problem: /journal\.wal: its header is not a journal header/,
  },
];

/** One store made through the server, copied for each case (each damages its own copy). */
let pristine: { path: string; remove(): void };
beforeAll(async () => {
  pristine = tempDir();
  await makeStore(pristine.path);
});
afterAll(() => pristine.remove());

function copyOfStore(): { path: string; remove(): void } {
  const dir = tempDir();
  cpSync(pristine.path, dir.path, { recursive: true });
  return dir;
}

describe('a store that is checked, not trusted', () => {
  describe.each(damages)('$name', ({ damage, problem }) => {
    it('is refused at start with the file, the problem and the way to recover, and left unchanged', async () => {
      const dir = copyOfStore();
      try {
        damage(dir.path);
        const before = digest(dir.path);
        const refused = await EmbeddedMongoServer.start({ port: 0, dbPath: dir.path }).then(
          async (server) => (await server.stop(), undefined),
          (error: unknown) => error as Error,
        );
        expect(refused?.name).toBe('StoreDamagedError');
        expect(refused?.message).toMatch(problem);
        expect(refused?.message).toContain(`embedded database store ${dir.path} is damaged: ${dir.path}/`);
        expect(refused?.message).toContain(`npm run db:restore -- --from <backup> --dbpath ${dir.path}`);
        expect(digest(dir.path)).toEqual(before);
        // The directory is released: a restore may take it at once.
        expect(readdirSync(dir.path)).not.toContain('embedded-mongo.lock');
      } finally {
        dir.remove();
      }
    });
  });

  it.each(damages.slice(0, 3))(
    'ends the server process with exit code 1 and the message, no signal: $name',
    async ({ damage, problem }) => {
      const dir = copyOfStore();
      try {
        damage(dir.path);
        const run = await runTool('cli.ts', ['--port', '0', '--dbpath', dir.path]);
        expect({ code: run.code, signal: run.signal }).toEqual({ code: 1, signal: null });
        expect(run.stderr).toMatch(problem);
        expect(run.stdout).toBe('');
      } finally {
        dir.remove();
      }
    },
  );

  it('creates a store where there is none, and only there', async () => {
    const dir = tempDir();
    try {
      const harness = await startHarness({ dbPath: join(dir.path, 'db') });
      await harness.client.db('shop').collection<AnyDoc>('orders').insertOne({ _id: 1 });
      await harness.stop();
      expect(readdirSync(join(dir.path, 'db')).sort()).toEqual([
        'data.mdb',
        'embedded-mongo.store',
        'journal.wal',
        'lock.mdb',
      ]);
    } finally {
      dir.remove();
    }
  });
});

describe('db-tool check', () => {
  it('says OK with what the store holds (exit 0), DAMAGED with the problem (exit 1), and why it did not check (exit 2)', async () => {
    const dir = copyOfStore();
    try {
      const sound = await runTool('db-tool.ts', ['check', '--dbpath', dir.path]);
      expect(sound.code).toBe(0);
      expect(sound.stdout).toMatch(
        new RegExp(`^OK: store ${dir.path} is sound: 1 collections, 505 documents, \\d+ pages, 0 journaled writes`),
      );

      const harness = await startHarness({ dbPath: dir.path });
      try {
        const served = await runTool('db-tool.ts', ['check', '--dbpath', dir.path]);
        expect(served.code).toBe(2);
        expect(served.stderr).toContain(`NOT DONE: data directory ${dir.path} is in use by process ${process.pid}`);
      } finally {
        await harness.stop();
      }

      truncateSync(join(dir.path, 'data.mdb'), 8192 * 3);
      const damaged = await runTool('db-tool.ts', ['check', '--dbpath', dir.path]);
      expect(damaged.code).toBe(1);
      expect(damaged.stderr).toMatch(
        /^DAMAGED: embedded database store .* is damaged: .*data\.mdb: page \d+ .*truncated/,
      );

      const none = await runTool('db-tool.ts', ['check', '--dbpath', join(dir.path, 'nowhere')]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('there is no store in');
      expect(existsSync(join(dir.path, 'nowhere'))).toBe(false);
      expect((await runTool('db-tool.ts', ['verify'])).code).toBe(2);
    } finally {
      dir.remove();
    }
  });
});

/** Waits (event-loop turns, no deadline: jest's test timeout bounds it) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

describe('online backup and restore', () => {
  it('takes a backup under write load that restores with every write acknowledged before it, without gaps', async () => {
    const dir = tempDir();
    const [dbPath, backupPath, restoredPath] = ['db', 'backup', 'restored'].map((name) => join(dir.path, name));
    const harness = await startHarness({ dbPath });
    try {
      const docs = harness.client.db('shop').collection<AnyDoc>('orders');
      // Each writer inserts its sequence 1, 2, 3... one at a time: acknowledged[w] = n means 1..n are acknowledged.
      const acknowledged = Array.from({ length: 8 }, () => 0);
      let writing = true;
      const writers = acknowledged.map(async (_, writer) => {
        for (let seq = 1; writing; seq++) {
          await docs.insertOne({ _id: `${writer}:${seq}`, writer, seq });
          acknowledged[writer] = seq;
        }
      });
      await until(() => Math.min(...acknowledged) >= 50);
      const beforeBackup = [...acknowledged];
      // The command `npm run db:backup` sends, from here: it arrives as the counts above were read.
      const backup = await harness.client.db('admin').command({ embeddedMongoBackup: 1, to: backupPath });
      const afterBackup = [...acknowledged];
      writing = false;
      await Promise.all(writers);
      expect(backup).toEqual({ to: backupPath, ok: 1 });
      expect(sum(afterBackup)).toBeGreaterThan(sum(beforeBackup)); // the writes went on while it was taken

      const restore = await runTool('db-tool.ts', ['restore', '--dbpath', restoredPath, '--from', backupPath]);
      expect(restore.stdout).toMatch(new RegExp(`^OK: restored ${backupPath} into ${restoredPath}`));
      expect(restore.code).toBe(0);
      const restored = await startHarness({ dbPath: restoredPath });
      try {
        const found = await restored.client.db('shop').collection<AnyDoc>('orders').find().toArray();
        acknowledged.forEach((last, writer) => {
          const seqs = found.filter((doc) => doc.writer === writer).map((doc) => doc.seq as number);
          seqs.sort((a, b) => a - b);
          // A snapshot: a prefix of each writer's sequence, holding at least what was acknowledged before the backup.
          expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
          expect(seqs.length).toBeGreaterThanOrEqual(beforeBackup[writer]);
          expect(seqs.length).toBeLessThanOrEqual(last);
        });
      } finally {
        await restored.stop();
      }
    } finally {
      await harness.stop();
      dir.remove();
    }
  });

  it('restores only a sound backup, only into a store no server serves, and moves what was there aside', async () => {
    const dir = copyOfStore();
    const backupPath = `${dir.path}-backup`;
    try {
      expect((await runTool('db-tool.ts', ['backup', '--dbpath', dir.path, '--to', backupPath])).stdout).toMatch(
        /\(offline\): 505 documents/,
      );
      const harness = await startHarness({ dbPath: dir.path });
      try {
        await harness.client
          .db('shop')
          .collection<AnyDoc>('orders')
          .deleteMany({ _id: { $gte: 1000 } });
        const online = await runTool('db-tool.ts', ['backup', '--dbpath', dir.path, '--to', `${backupPath}-online`]);
        expect(online.stdout).toMatch(
          new RegExp(`^OK: backup of ${dir.path} written to ${backupPath}-online \\(online\\): 500 documents`),
        );
        expect(online.code).toBe(0);
        rmSync(`${backupPath}-online`, { recursive: true });
        const served = await runTool('db-tool.ts', ['restore', '--dbpath', dir.path, '--from', backupPath]);
        expect(served.code).toBe(2);
        expect(served.stderr).toContain(
          `is in use by process ${process.pid}: cannot restore into it; stop the app first`,
        );
      } finally {
        await harness.stop();
      }
      const restore = await runTool('db-tool.ts', ['restore', '--dbpath', dir.path, '--from', backupPath]);
      expect(restore.code).toBe(0);
      const aside = /what it held before is in (\S+)$/m.exec(restore.stdout)?.[1] ?? '';
      expect(readdirSync(aside)).toEqual(expect.arrayContaining(['data.mdb', 'journal.wal', 'embedded-mongo.store']));
      const reopened = await startHarness({ dbPath: dir.path });
      expect(await reopened.client.db('shop').collection('orders').countDocuments()).toBe(505);
      await reopened.stop();
      rmSync(aside, { recursive: true });

      truncateSync(join(backupPath, 'data.mdb'), 8192 * 2);
      const before = digest(dir.path);
      const damaged = await runTool('db-tool.ts', ['restore', '--dbpath', dir.path, '--from', backupPath]);
      expect(damaged.code).toBe(1);
      expect(damaged.stderr).toMatch(/^DAMAGED: .*-backup\/data\.mdb: page \d+ .*truncated/);
      expect(digest(dir.path)).toEqual(before);
    } finally {
      dir.remove();
      rmSync(backupPath, { recursive: true, force: true });
    }
  });

  it('refuses a backup command with a bad target, off the admin database or without a store', async () => {
    const dir = copyOfStore();
    const harness = await startHarness({ dbPath: dir.path });
    const memory = await startHarness();
    try {
      const admin = harness.client.db('admin');
      const relative = await failure(admin.command({ embeddedMongoBackup: 1, to: 'backups/today' }));
      expect(relative).toMatchObject({ codeName: 'BadValue', message: expect.stringContaining("needs 'to'") });
      expect((await failure(admin.command({ embeddedMongoBackup: 1 }))).codeName).toBe('BadValue');
      const notEmpty = await failure(admin.command({ embeddedMongoBackup: 1, to: dir.path }));
      expect(notEmpty).toMatchObject({ codeName: 'BadValue', message: `backup target ${dir.path} is not empty` });
      const shop = await failure(harness.client.db('shop').command({ embeddedMongoBackup: 1, to: `${dir.path}-x` }));
      expect(shop.codeName).toBe('IllegalOperation');
      const inMemory = await failure(
        memory.client.db('admin').command({ embeddedMongoBackup: 1, to: `${dir.path}-x` }),
      );
      expect(inMemory).toMatchObject({
        codeName: 'IllegalOperation',
        message: 'an in-memory server has no store to back up',
      });
      expect(existsSync(`${dir.path}-x`)).toBe(false);
    } finally {
      await harness.stop();
      await memory.stop();
      dir.remove();
    }
  });
});

describe('a backup and a stop at once', () => {
  it('survives a stop during a backup: the copy ends first, leaving a sound backup or none, and the store intact', async () => {
    const dir = copyOfStore();
    const backupPath = `${dir.path}-racing`;
    try {
      const harness = await startHarness({ dbPath: dir.path });
      const backup = harness.client
        .db('admin')
        .command({ embeddedMongoBackup: 1, to: backupPath })
        .then(
          () => 'taken',
          () => 'interrupted',
        );
      await harness.server.stop();
      await backup;
      await harness.client.close();
      if (existsSync(join(backupPath, 'data.mdb'))) {
        const check = await runTool('db-tool.ts', ['check', '--dbpath', backupPath]);
        expect(check.stdout).toMatch(/^OK: store .* is sound: 1 collections, 505 documents/);
      }
      const reopened = await startHarness({ dbPath: dir.path });
      expect(await reopened.client.db('shop').collection('orders').countDocuments()).toBe(505);
      await reopened.stop();
    } finally {
      dir.remove();
      rmSync(backupPath, { recursive: true, force: true });
    }
  });
});

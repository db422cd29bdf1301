import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { EmbeddedMongoServer, type LogEntry } from '../src';
import { failure, startHarness, tempDir, type AnyDoc, type Harness } from './helpers';

/**
 * Real disk faults, injected with `chattr +i` (immutable: even root's writes through an already open
 * descriptor fail with EPERM, where `chmod` does not stop root). It needs CAP_LINUX_IMMUTABLE and a file
 * system with inode flags; without them these tests are skipped and say so.
 */
function setImmutable(path: string, on: boolean): void {
  execFileSync('chattr', [on ? '+i' : '-i', path], { stdio: 'pipe' });
}

function immutableSupported(): boolean {
  const dir = tempDir();
  try {
    setImmutable(dir.path, true);
    setImmutable(dir.path, false);
    return true;
  } catch {
    return false;
  } finally {
    dir.remove();
  }
}

const supported = immutableSupported();
if (!supported) console.warn('storage fault tests skipped: chattr +i is not available here');
const faultIt = supported ? it : it.skip;

/** Resolves with the first log entry the server reports that matches. */
function nextLog(server: EmbeddedMongoServer, matches: (entry: LogEntry) => boolean): Promise<LogEntry> {
  return new Promise((resolve) => {
    const listener = (entry: LogEntry): void => {
      if (!matches(entry)) return;
      server.off('log', listener);
      resolve(entry);
    };
    server.on('log', listener);
  });
}

describe('storage faults', () => {
  faultIt(
    'fails a write whose journal write fails, keeps answering, and commits it once the disk is back',
    async () => {
      const dir = tempDir();
      const journal = join(dir.path, 'journal.wal');
      let harness: Harness | undefined = await startHarness({ dbPath: dir.path });
      try {
        const docs = harness.client.db('faults').collection<AnyDoc>('docs');
        await docs.insertOne({ _id: 1 });
        setImmutable(journal, true);
        const logged = nextLog(harness.server, (entry) => entry.level === 'error');
        const refused = await failure(docs.insertOne({ _id: 2 }));
        expect(refused).toMatchObject({ code: 1, codeName: 'InternalError' });
        expect(refused.message).toMatch(/^write not durable, storage commit failed \(EPERM: operation not permitted/);
        expect(await logged).toMatchObject({ source: expect.stringMatching(/^conn\d+$/) });
        expect((await logged).message).toMatch(/^command insert failed: write not durable/);

        // Reads and other commands are still answered; further writes fail while the fault lasts.
        await expect(harness.client.db('admin').command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
        expect(await docs.countDocuments()).toBe(2);
        expect((await failure(docs.updateOne({ _id: 1 }, { $set: { a: 1 } }))).codeName).toBe('InternalError');

        setImmutable(journal, false);
        await docs.insertOne({ _id: 3 });
        await harness.stop();
        harness = await startHarness({ dbPath: dir.path });
        const reopened = harness.client.db('faults').collection<AnyDoc>('docs');
        expect(await reopened.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, a: 1 }, { _id: 2 }, { _id: 3 }]);
      } finally {
        setImmutable(journal, false);
        await harness?.stop();
        dir.remove();
      }
    },
  );

  faultIt('logs TTL removals that cannot be made durable and commits them once the disk is back', async () => {
    const dir = tempDir();
    const journal = join(dir.path, 'journal.wal');
    let harness: Harness | undefined = await startHarness({ dbPath: dir.path, ttlIntervalMs: 50 });
    try {
      const docs = harness.client.db('faults').collection<AnyDoc>('ttl');
      await docs.insertMany([
        { _id: 1, at: new Date(0) },
        { _id: 2, at: new Date(8.64e15) },
      ]);
      setImmutable(journal, true);
      const logged = nextLog(harness.server, (entry) => entry.source === 'ttl').then((entry) => entry);
      // The index is applied in memory though its catalog write fails, so the monitor removes _id 1.
      expect((await failure(docs.createIndex({ at: 1 }, { expireAfterSeconds: 1 }))).codeName).toBe('InternalError');
      expect(await logged).toMatchObject({ level: 'error' });
      expect((await logged).message).toMatch(
        /^1 expired document\(s\) removed but not durable: write not durable.*EPERM/,
      );

      setImmutable(journal, false);
      await harness.stop();
      harness = await startHarness({ dbPath: dir.path });
      const reopened = harness.client.db('faults').collection<AnyDoc>('ttl');
      expect(await reopened.find().toArray()).toEqual([{ _id: 2, at: new Date(8.64e15) }]);
      expect((await reopened.indexes()).map((index) => index.expireAfterSeconds)).toEqual([undefined, 1]);
    } finally {
      setImmutable(journal, false);
      await harness?.stop();
      dir.remove();
    }
  });

  faultIt('reports a data directory that cannot be written as such, not as held by another server', async () => {
    const dir = tempDir();
    setImmutable(dir.path, true);
    try {
      const start = EmbeddedMongoServer.start({ port: 0, dbPath: dir.path });
      await expect(start).rejects.toMatchObject({ code: 'EPERM', syscall: 'open' });
      await expect(start).rejects.toThrow(/embedded-mongo\.lock/);
    } finally {
      setImmutable(dir.path, false);
      dir.remove();
    }
  });
});

import { serialize } from 'bson';
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { GroupCommit } from '../src/storage/group-commit';
import { Journal } from '../src/storage/journal';
import { LmdbStore } from '../src/storage/lmdb-store';
import { startHarness, tempDir, type AnyDoc, type Harness } from './helpers';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface StorageStatus {
  commits: number;
  committedWrites: number;
  failedCommits: number;
  checkpoints: number;
  recoveredWrites: number;
}

interface EmbeddedStatus {
  documentsSerialized: number;
  storage: StorageStatus;
}

async function embeddedStatus(db: Db): Promise<EmbeddedStatus> {
  return (await db.admin().command({ serverStatus: 1 })).embeddedMongo as EmbeddedStatus;
}

/** How many documents the server serialized while `action` ran. */
/** Documents with a numeric counter, as the update tests `$inc` it. */
type Counted = { _id?: number; n?: number; m?: number; tags?: string[]; nested?: { x: number }; group?: string };

async function serializations(db: Db, action: () => Promise<unknown>): Promise<number> {
  const before = (await embeddedStatus(db)).documentsSerialized;
  await action();
  return (await embeddedStatus(db)).documentsSerialized - before;
}

describe.each([
  ['in memory', false],
  ['durable (lmdb)', true],
])('serializations per stored document version, %s', (_mode, durable) => {
  let harness: Harness;
  let dir: ReturnType<typeof tempDir> | undefined;
  beforeAll(async () => {
    dir = durable ? tempDir() : undefined;
    harness = await startHarness({ dbPath: dir?.path });
  });
  afterAll(async () => {
    await harness.stop();
    dir?.remove();
  });

  it('serializes an inserted, updated, replaced or upserted document once', async () => {
    const db = harness.client.db('serial');
    const docs = db.collection<Counted>('docs');
    await db.createCollection('docs');
    expect(await serializations(db, () => docs.insertOne({ _id: 1, n: 1, tags: ['a'], nested: { x: 1.5 } }))).toBe(1);
    expect(await serializations(db, () => docs.updateOne({ _id: 1 }, { $inc: { n: 1 } }))).toBe(1);
    expect(await serializations(db, () => docs.replaceOne({ _id: 1 }, { n: 10, nested: { x: 2 } }))).toBe(1);
    expect(await serializations(db, () => docs.updateOne({ _id: 2 }, { $set: { n: 0 } }, { upsert: true }))).toBe(1);
    expect(await serializations(db, () => docs.updateOne({ _id: 1 }, [{ $set: { m: { $add: ['$n', 1] } } }]))).toBe(1);
    expect(await serializations(db, () => docs.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } }))).toBe(1);
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, n: 11, nested: { x: 2 }, m: 11 });
  });

  it('serializes a no-op update once and reports it unmodified', async () => {
    const db = harness.client.db('serial');
    const docs = db.collection<AnyDoc>('noop');
    await docs.insertOne({ _id: 1, n: 5 });
    let result: Awaited<ReturnType<typeof docs.updateOne>> | undefined;
    const noop = async (): Promise<void> => {
      result = await docs.updateOne({ _id: 1 }, { $set: { n: 5 } });
    };
    expect(await serializations(db, noop)).toBe(1);
    expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
  });

  it('serializes each document of a multi update once', async () => {
    const db = harness.client.db('serial');
    const docs = db.collection<Counted>('many');
    await docs.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: i, group: 'g', n: i })));
    expect(await serializations(db, () => docs.updateMany({ group: 'g' }, { $inc: { n: 1 } }))).toBe(5);
    expect((await docs.find().toArray()).map((doc) => doc.n)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('getLastError', () => {
  it('is an unknown command, as in MongoDB 7 (removed in 5.1)', async () => {
    const harness = await startHarness();
    try {
      await expect(harness.client.db('admin').command({ getLastError: 1 })).rejects.toMatchObject({
        code: 59,
        codeName: 'CommandNotFound',
        errmsg: "no such command: 'getLastError'",
      });
    } finally {
      await harness.stop();
    }
  });
});

describe('group commit (durable store)', () => {
  it('acknowledges 16 concurrent inserts of 16 clients with fewer commits than inserts', async () => {
    const dir = tempDir();
    const harness = await startHarness({ dbPath: dir.path });
    const connect = (): Promise<MongoClient> => MongoClient.connect(harness.server.uri, { maxPoolSize: 1 });
    const clients = await Promise.all(Array.from({ length: 16 }, connect));
    try {
      const admin = harness.client.db('admin');
      await harness.client.db('group').createCollection('docs');
      // One round trip per client first, so each has its connection open.
      await Promise.all(clients.map((client) => client.db('admin').command({ ping: 1 })));
      const before = (await embeddedStatus(admin)).storage;
      const insert = (client: MongoClient, i: number) =>
        client.db('group').collection<AnyDoc>('docs').insertOne({ _id: i });
      await Promise.all(clients.map(insert));
      const after = (await embeddedStatus(admin)).storage;
      expect(after.committedWrites - before.committedWrites).toBe(16);
      expect(after.commits - before.commits).toBeLessThan(16);
      expect(after.failedCommits).toBe(0);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await harness.stop();
      dir.remove();
    }
  });

  it('resolves each write only after a completed commit that includes it, each turn its own commit', async () => {
    const dir = tempDir();
    try {
      const store = LmdbStore.open(dir.path);
      store.putCollection({ db: 'group', name: 'docs', options: {}, indexes: [] });
      await store.flush();
      const before = store.commitStats.commits;
      const acks: { index: number; committedWrites: number }[] = [];
      const acknowledged: Promise<void>[] = [];
      for (let index = 0; index < 16; index++) {
        store.putDocument('group.docs', String(index), serialize({ _id: index }));
        const covered = store.flush().then(() => {
          acks.push({ index, committedWrites: store.commitStats.committedWrites });
        });
        acknowledged.push(covered);
        await nextTurn(); // the next write comes in a later event-loop turn, as another client's would
      }
      await Promise.all(acknowledged);
      // Writes commit in queue order, so write i is in a completed commit once i + 1 writes are committed.
      for (const ack of acks) expect(ack.committedWrites).toBeGreaterThanOrEqual(ack.index + 2); // + the catalog write
      expect(acks).toHaveLength(16);
      // A commit's journal write blocks the thread, so nothing arrives during it here: each turn commits its own
      // write (sharing is of requests that arrive during a write, tested with 16 driver clients above).
      expect(store.commitStats.commits - before).toBe(16);
      await store.close();

      const reopened = LmdbStore.open(dir.path);
      expect(reopened.load().map((collection) => collection.docs.length)).toEqual([16]);
      expect(reopened.commitStats.recoveredWrites).toBe(0); // close() moved the journal into lmdb
      await reopened.close();
    } finally {
      dir.remove();
    }
  });
});

/** Runs the journal-writer fixture until it SIGKILLs itself after its last acknowledged write. */
function runJournalWriter(dbPath: string): Promise<void> {
  const fixture = join(__dirname, 'fixtures', 'journal-writer.js');
  const child = spawn(process.execPath, [fixture, dbPath], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`writer exited (${signal})`));
    });
  });
}

describe('journal', () => {
  it('replays acknowledged writes that only the journal held when the server was killed', async () => {
    const dir = tempDir();
    try {
      await runJournalWriter(dir.path);
      const harness = await startHarness({ dbPath: dir.path });
      try {
        const db = harness.client.db('journal');
        expect((await embeddedStatus(db)).storage.recoveredWrites).toBeGreaterThan(0);
        const kept = await db.collection<AnyDoc>('kept').find().toArray();
        expect(kept).toHaveLength(49);
        expect(kept.find((doc) => doc._id === 7)).toEqual({ _id: 7, n: 700 });
        expect(kept.some((doc) => doc._id === 8)).toBe(false);
        expect(await db.collection('dropped').find().toArray()).toEqual([{ _id: 3 }]);
      } finally {
        await harness.stop();
      }
    } finally {
      dir.remove();
    }
  });

  it('recovers records up to the first torn one, and none of a finished generation', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'journal.wal');
    try {
      const first = Journal.open(path, 1024 * 1024).journal;
      for (const text of ['one', 'two', 'three']) first.append(Buffer.from(text));
      first.close();
      const bytes = readFileSync(path);
      const two = bytes.indexOf('two');
      bytes[two] = 'T'.charCodeAt(0); // a torn write: the CRC no longer matches
      writeFileSync(path, bytes);

      const second = Journal.open(path, 1024 * 1024);
      expect(second.records.map(String)).toEqual(['one']);
      second.journal.append(Buffer.from('four'));
      await second.journal.reset();
      second.journal.append(Buffer.from('five'));
      second.journal.close();
      expect(Journal.open(path, 1024 * 1024).records.map(String)).toEqual(['five']);
    } finally {
      dir.remove();
    }
  });

  it("stops recovery at a record torn over an earlier generation's records, and at a zeroed record", async () => {
    const dir = tempDir();
    const path = join(dir.path, 'journal.wal');
    try {
      const first = Journal.open(path, 1024 * 1024).journal;
      for (const text of ['old-one', 'old-two', 'old-three']) first.append(Buffer.from(text.repeat(50)));
      await first.reset();
      first.append(Buffer.from('new-one'));
      first.append(Buffer.from('new-two'.repeat(60))); // ends past the end of 'old-one', over 'old-two'
      first.close();
      const bytes = readFileSync(path);
      const newTwo = bytes.indexOf('new-two');
      // The write was torn: its header and first bytes reached the disk, the rest still holds the old records.
      bytes.write('old-two'.repeat(50), newTwo + 20);
      writeFileSync(path, bytes);
      expect(Journal.open(path, 1024 * 1024).records.map(String)).toEqual(['new-one']);

      const zeroed = Journal.open(path, 1024 * 1024).journal;
      await zeroed.reset();
      for (const text of ['first', 'second', 'third']) zeroed.append(Buffer.from(text));
      zeroed.close();
      const reused = readFileSync(path);
      // 'second' never reached the disk (zeros where it was written): 'third', valid as it is, is not replayed.
      reused.fill(0, reused.indexOf('second') - 12, reused.indexOf('second') + 6);
      writeFileSync(path, reused);
      expect(Journal.open(path, 1024 * 1024).records.map(String)).toEqual(['first']);
    } finally {
      dir.remove();
    }
  });

  it('starts each record at a sector boundary, writes it directly where the file system allows, and reads it back', () => {
    const dir = tempDir();
    const path = join(dir.path, 'journal.wal');
    try {
      const { journal } = Journal.open(path, 4 * 1024 * 1024);
      expect(journal.writesDirectly).toBe(acceptsDirectWrites(dir.path));
      // The middle record is larger than the direct writes' buffer: it goes through the page cache.
      const texts = ['one', 'x'.repeat(1536 * 1024), 'two', 'three'];
      for (const text of texts) journal.append(Buffer.from(text));
      journal.close();
      const bytes = readFileSync(path);
      for (const text of ['one', 'xxx', 'two', 'three']) expect((bytes.indexOf(text) - 12) % 512).toBe(0);
      expect(Journal.open(path, 4 * 1024 * 1024).records.map(String)).toEqual(texts);
    } finally {
      dir.remove();
    }
  });

  it('replays the packed records of a journal written before records were aligned, then writes aligned ones', () => {
    const dir = tempDir();
    const path = join(dir.path, 'journal.wal');
    try {
      for (const [magic, generation] of [
        [0x454d4a31, 7],
        [0, 0],
      ]) {
        writeFileSync(path, packedJournal(magic, generation, ['a', 'bb', 'ccc'], 1024 * 1024));
        const { journal, records } = Journal.open(path, 1024 * 1024);
        expect(records.map(String)).toEqual(['a', 'bb', 'ccc']);
        journal.resetSync(); // as the store does once the records are replayed
        journal.append(Buffer.from('dddd'));
        journal.close();
        const bytes = readFileSync(path);
        expect(bytes.toString('latin1', 0, 4)).toBe('2JME'); // "EMJ2", little-endian
        expect((bytes.indexOf('dddd') - 12) % 512).toBe(0);
        expect(Journal.open(path, 1024 * 1024).records.map(String)).toEqual(['dddd']);
      }
    } finally {
      dir.remove();
    }
  });

  it('commits a batch larger than the journal straight to lmdb', async () => {
    const dir = tempDir();
    try {
      const big = 'x'.repeat(1024 * 1024);
      const first = await startHarness({ dbPath: dir.path });
      const docs = Array.from({ length: 20 }, (_, i) => ({ _id: i, big })); // 20 MiB in one batch
      await first.client.db('big').collection<AnyDoc>('docs').insertMany(docs);
      expect((await embeddedStatus(first.client.db('admin'))).storage.checkpoints).toBeGreaterThan(0);
      await first.stop();
      const second = await startHarness({ dbPath: dir.path });
      try {
        expect(await second.client.db('big').collection('docs').countDocuments()).toBe(20);
      } finally {
        await second.stop();
      }
    } finally {
      dir.remove();
    }
  });
});

describe('namespace length', () => {
  it('refuses a namespace over 255 bytes as MongoDB does, failing only that command', async () => {
    const dir = tempDir();
    try {
      const harness = await startHarness({ dbPath: dir.path });
      const db = harness.client.db('ns');
      const [tooLong, fine] = await Promise.allSettled([
        db.collection<AnyDoc>('x'.repeat(300)).insertOne({ _id: 1 }),
        db.collection<AnyDoc>('fine').insertOne({ _id: 1 }),
      ]);
      const errmsg = `Fully qualified namespace is too long. Namespace: ns.${'x'.repeat(300)} Max: 255`;
      expect(tooLong).toMatchObject({ status: 'rejected', reason: { code: 73, codeName: 'InvalidNamespace', errmsg } });
      expect(fine.status).toBe('fulfilled');
      await harness.stop();
      const restarted = await startHarness({ dbPath: dir.path });
      try {
        const names = await restarted.client
          .db('ns')
          .listCollections()
          .map((info) => info.name)
          .toArray();
        expect(names).toEqual(['fine']);
      } finally {
        await restarted.stop();
      }
    } finally {
      dir.remove();
    }
  });
});

describe('GroupCommit', () => {
  it('fails exactly the writes of a failed commit and carries them into the next commit', async () => {
    const batches: string[][] = [];
    let diskFull = false;
    const group = new GroupCommit<string>(async (batch) => {
      batches.push([...batch.writes]);
      const failing = diskFull;
      await nextTurn();
      if (failing) throw new Error('disk full');
    });
    const first = group.add('a');
    await nextTurn(); // the commit of [a] is in flight: the next writes form the next batch
    diskFull = true;
    const second = group.add('b');
    const third = group.add('c');
    await expect(first).resolves.toBeUndefined();
    await expect(second).rejects.toThrow('disk full');
    await expect(third).rejects.toThrow('disk full');
    await expect(group.add('d')).rejects.toThrow('disk full');
    diskFull = false;
    await expect(group.add('e')).resolves.toBeUndefined();
    expect(batches).toEqual([['a'], ['b', 'c'], ['b', 'c', 'd'], ['b', 'c', 'd', 'e']]);
    expect(group.stats).toEqual({ commits: 2, committedWrites: 5, failedCommits: 2 });
  });

  it('while writers are many, lets a batch gather the writes of the next turns until a turn adds none', async () => {
    const batches: string[][] = [];
    const group = new GroupCommit<string>((batch) => {
      batches.push([...batch.writes]);
      return Promise.resolve();
    });
    await group.add('alone');
    const lone = group.add('lone'); // the last commit held one write: this one commits in its own turn
    await nextTurn();
    await Promise.all([lone, group.add('later')]);
    expect(batches).toEqual([['alone'], ['lone'], ['later']]);
    await Promise.all([group.add('a'), group.add('b')]); // two writers in one turn: a shared commit
    const c = group.add('c');
    group.add('d').catch(() => undefined); // another writer of the same turn: the batch waits a turn
    await nextTurn();
    group.add('e').catch(() => undefined); // it came in that turn: the batch waits again
    await c;
    expect(batches).toEqual([['alone'], ['lone'], ['later'], ['a', 'b'], ['c', 'd', 'e']]);
  });

  it('commits carried writes again on flush, with no new write', async () => {
    let failures = 1;
    const committed: string[] = [];
    const group = new GroupCommit<string>(async (batch) => {
      if (failures-- > 0) throw new Error('read-only file');
      committed.push(...batch.writes);
    });
    await expect(group.add('a')).rejects.toThrow('read-only file');
    await expect(group.flush()).resolves.toBeUndefined();
    expect(committed).toEqual(['a']);
  });
});

/** Whether the file system under `dir` opens files with O_DIRECT (where the journal must then write directly). */
function acceptsDirectWrites(dir: string): boolean {
  const { O_DIRECT } = constants as { O_DIRECT?: number };
  if (O_DIRECT === undefined) return false;
  try {
    closeSync(openSync(join(dir, 'direct-probe'), constants.O_RDWR | constants.O_CREAT | O_DIRECT));
    return true;
  } catch {
    return false;
  }
}

/** A journal file as versions before aligned records wrote it: records back to back after the 4 KiB header. */
function packedJournal(magic: number, generation: number, texts: string[], capacity: number): Buffer {
  const bytes = Buffer.alloc(capacity);
  bytes.writeUInt32LE(magic, 0);
  bytes.writeUInt32LE(magic === 0 ? 0 : generation, 4);
  let at = 4096;
  for (const text of texts) {
    const payload = Buffer.from(text);
    bytes.writeUInt32LE(payload.length, at);
    bytes.writeUInt32LE(generation, at + 4);
    bytes.writeUInt32LE(crc32(payload), at + 8);
    payload.copy(bytes, at + 12);
    at += 12 + payload.length;
  }
  return bytes;
}

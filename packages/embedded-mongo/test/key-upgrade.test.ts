import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { BSON, Binary, Code, Long, UUID, type Db } from 'mongodb';
import { open } from 'lmdb';
import { typeOf } from 'mingo/util';
import { Journal } from '../src/storage/journal';
import { JOURNAL_BYTES, JOURNAL_FILE } from '../src/storage/store-check';
import { encodeWrites, type Write } from '../src/storage/store-writes';
import { startHarness, tempDir } from './helpers';

/*
 * Stores written before binary values were keyed by their bytes: documents (and journal records) under the keys of
 * the earlier rule, which the server must move at open (README, "On-disk format and upgrades"). The stores are made
 * here by that rule, a frozen copy of `keyString` and `docKey` as they were, so the tests need no older build.
 */
type Canonical = string | number | boolean | null | Canonical[];

function legacyCanonical(value: unknown): Canonical {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return ['n', Object.is(value, -0) ? 0 : value];
  if (Array.isArray(value)) return ['a', ...value.map(legacyCanonical)];
  const type = typeOf(value);
  if (type === 'object') return ['o', ...Object.entries(value).map(([k, v]): Canonical => [k, legacyCanonical(v)])];
  if (type === 'long') return ['n', Number(value)];
  return [type, (value as { toString(): string }).toString()];
}

function legacyDocKey(ns: string, id: unknown): Buffer {
  const key = JSON.stringify([legacyCanonical(id)]);
  const idPart = Buffer.byteLength(key) > 1500 ? `#${createHash('sha256').update(key).digest('hex')}` : key;
  return Buffer.from(`${ns}\u0000${idPart}`);
}

const DB = 'up';
const NS = `${DB}.docs`;
const bin = (...bytes: number[]): Binary => new Binary(Buffer.from(bytes));

type Stored = { _id: Binary | Code | Long | number | string | { k: Binary }; tag: string };

/** Documents whose key the upgrade changes: all distinct by the earlier rule too, so such a store could exist. */
const MOVED: Stored[] = [
  { _id: bin(0x80), tag: 'binary' },
  { _id: new UUID('0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0'), tag: 'uuid' },
  { _id: Infinity, tag: 'infinity' },
  { _id: Long.fromString('9007199254740993'), tag: 'long' },
  { _id: new Code('return 1'), tag: 'code' },
  { _id: { k: bin(0x90) }, tag: 'nested' },
  { _id: new Binary(Buffer.alloc(2000, 0x85)), tag: 'digested' },
];
/** Documents whose key stays as it was. */
const KEPT: Stored[] = [
  { _id: 1, tag: 'number' },
  { _id: 'one', tag: 'string' },
];

/** A store made by the server (collection, unique index on `tag`), then given documents under the earlier keys. */
async function legacyStore(path: string, docs: Stored[]): Promise<void> {
  const harness = await startHarness({ dbPath: path });
  await harness.client.db(DB).collection('docs').createIndex({ tag: 1 }, { unique: true });
  await harness.stop();
  const root = open({ path, noSubdir: false, maxDbs: 4 });
  const table = root.openDB<Buffer, Buffer>({ name: 'docs', encoding: 'binary', keyEncoding: 'binary' });
  await root.transaction(() => {
    for (const doc of docs) void table.put(legacyDocKey(NS, doc._id), Buffer.from(BSON.serialize(doc)));
  });
  await root.close();
}

/** The stored keys of the collection, read from the lmdb file (the server stopped). */
async function storedKeys(path: string): Promise<string[]> {
  const root = open({ path, noSubdir: false, maxDbs: 4, readOnly: true });
  const table = root.openDB<Buffer, Buffer>({ name: 'docs', encoding: 'binary', keyEncoding: 'binary' });
  const keys = [...table.getKeys()].map((key) => key.toString('utf8')).filter((key) => key.startsWith(`${NS}\u0000`));
  await root.close();
  return keys;
}

async function storageStatus(db: Db): Promise<{ rekeyedDocuments: number; recoveredWrites: number }> {
  return (await db.admin().command({ serverStatus: 1 })).embeddedMongo.storage;
}

/** Each document once, found by its own `_id` as well as in a scan. */
async function expectExactly(db: Db, docs: Stored[]): Promise<void> {
  const collection = db.collection<Stored>('docs');
  const all = await collection.find().toArray();
  expect(all.map((doc) => doc.tag).sort()).toEqual(docs.map((doc) => doc.tag).sort());
  for (const doc of docs) expect(await collection.find({ _id: doc._id }).toArray()).toEqual([doc]);
}

describe('a store keyed by the earlier rule', () => {
  it('opens with every document readable once, moved to its key, updatable and deletable once', async () => {
    const dir = tempDir();
    try {
      await legacyStore(dir.path, [...MOVED, ...KEPT]);
      const first = await startHarness({ dbPath: dir.path });
      const db = first.client.db(DB);
      const docs = db.collection<Stored>('docs');
      try {
        expect((await storageStatus(db)).rekeyedDocuments).toBe(MOVED.length);
        await expectExactly(db, [...MOVED, ...KEPT]);
        expect(await docs.updateOne({ _id: bin(0x80) }, { $set: { tag: 'binary, updated' } })).toMatchObject({
          modifiedCount: 1,
        });
        expect(await docs.deleteOne({ _id: MOVED[1]._id })).toMatchObject({ deletedCount: 1 });
        expect(await docs.deleteOne({ _id: MOVED[6]._id })).toMatchObject({ deletedCount: 1 });
        // Its UTF-8 decoding is the one of 0x80: the earlier rule refused it as a duplicate.
        await docs.insertOne({ _id: bin(0x81), tag: 'new binary' });
      } finally {
        await first.stop();
      }
      const expected = [
        { _id: bin(0x80), tag: 'binary, updated' },
        ...MOVED.slice(2, 6),
        ...KEPT,
        { _id: bin(0x81), tag: 'new binary' },
      ];
      // No key of the earlier rule is left behind to bring a deleted or older version back.
      expect(await storedKeys(dir.path)).toHaveLength(expected.length);
      const second = await startHarness({ dbPath: dir.path });
      try {
        expect((await storageStatus(second.client.db(DB))).rekeyedDocuments).toBe(0);
        await expectExactly(second.client.db(DB), expected);
      } finally {
        await second.stop();
      }
    } finally {
      dir.remove();
    }
  });

  it('replays a journal of writes under the earlier keys, then moves them', async () => {
    const dir = tempDir();
    try {
      await legacyStore(dir.path, [...MOVED, ...KEPT]);
      // Unflushed writes of the earlier version at a crash: an update, a delete and an insert, all under its keys
      // (0xc0 0x41 decodes to U+FFFD 'A', apart from 0x80).
      const writes: Write[] = [
        {
          table: 'docs',
          key: legacyDocKey(NS, bin(0x80)).toString(),
          value: BSON.serialize({ _id: bin(0x80), tag: 'a2' }),
        },
        { table: 'docs', key: legacyDocKey(NS, Infinity).toString(), value: null },
        {
          table: 'docs',
          key: legacyDocKey(NS, bin(0xc0, 0x41)).toString(),
          value: BSON.serialize({ _id: bin(0xc0, 0x41), tag: 'c0' }),
        },
      ];
      const { journal } = Journal.open(join(dir.path, JOURNAL_FILE), JOURNAL_BYTES);
      journal.append(encodeWrites(writes));
      journal.close();
      const expected = [
        { _id: bin(0x80), tag: 'a2' },
        ...MOVED.slice(1, 2),
        ...MOVED.slice(3),
        ...KEPT,
        { _id: bin(0xc0, 0x41), tag: 'c0' },
      ];
      const harness = await startHarness({ dbPath: dir.path });
      try {
        const db = harness.client.db(DB);
        expect(await storageStatus(db)).toMatchObject({ recoveredWrites: 3, rekeyedDocuments: MOVED.length });
        await expectExactly(db, expected);
        expect(await db.collection<Stored>('docs').deleteOne({ _id: bin(0xc0, 0x41) })).toMatchObject({
          deletedCount: 1,
        });
      } finally {
        await harness.stop();
      }
      expect(await storedKeys(dir.path)).toHaveLength(expected.length - 1);
    } finally {
      dir.remove();
    }
  });

  it('is whole after SIGKILL during or right after the open that moves its documents', async () => {
    // Enough documents that the open takes a while: the first kill lands while it reads or moves them.
    const many = Array.from({ length: 3000 }, (_, n) => ({ _id: bin(0x80, ...Buffer.from(`${n}`)), tag: `${n}` }));
    const dir = tempDir();
    try {
      await legacyStore(dir.path, many);
      await runOpenerUntilKilled(dir.path, 'opening');
      await runOpenerUntilKilled(dir.path, 'opened');
      const harness = await startHarness({ dbPath: dir.path });
      try {
        const db = harness.client.db(DB);
        expect((await storageStatus(db)).rekeyedDocuments).toBe(0);
        const docs = db.collection<Stored>('docs');
        expect(await docs.countDocuments()).toBe(many.length);
        for (const doc of [many[0], many[1234], many[2999]]) {
          expect(await docs.find({ _id: doc._id }).toArray()).toEqual([doc]);
        }
      } finally {
        await harness.stop();
      }
      expect(await storedKeys(dir.path)).toHaveLength(many.length);
    } finally {
      dir.remove();
    }
  });
});

/** Runs the store-opener fixture on `dbPath` and SIGKILLs it when it prints `line` (before or after its open). */
function runOpenerUntilKilled(dbPath: string, line: 'opening' | 'opened'): Promise<void> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'store-opener.js'), dbPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    if (chunk.split('\n').includes(line)) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`opener exited without being killed (${signal})`)),
    );
  });
}

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { EmbeddedMongoServer } from '../src';
import { startHarness, tempDir, type AnyDoc } from './helpers';

/** Starts the writer and resolves with every acknowledged _id once `count` were acknowledged and it was SIGKILLed. */
function runWriterUntilKilled(dbPath: string, count: number): Promise<number[]> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'crash-writer.js'), dbPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const acknowledged: number[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    acknowledged.push(...lines.map(Number));
    if (acknowledged.length >= count) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (_code, signal) =>
      signal === 'SIGKILL'
        ? resolve(acknowledged)
        : reject(new Error(`writer exited without being killed (${signal})`)),
    );
  });
}

describe('persistence', () => {
  it('keeps indexes, validators and documents across a clean restart', async () => {
    const dir = tempDir();
    const dbPath = join(dir.path, 'data.v1'); // a dotted directory name must not be taken for a file
    try {
      const first = await startHarness({ dbPath });
      const db = first.client.db('persist');
      await db.createCollection('people', { validator: { age: { $gte: 0 } } });
      await db.collection('people').createIndex({ email: 1 }, { unique: true });
      await db.collection('people').insertMany([
        { email: 'a', age: 1 },
        { email: 'b', age: 2 },
      ]);
      await db.collection('people').deleteOne({ email: 'b' });
      await first.stop();

      const second = await startHarness({ dbPath });
      try {
        const people = second.client.db('persist').collection('people');
        expect(await people.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ email: 'a', age: 1 }]);
        await expect(people.insertOne({ email: 'a', age: 3 })).rejects.toMatchObject({ code: 11000 });
        await expect(people.insertOne({ email: 'c', age: -1 })).rejects.toMatchObject({ code: 121 });
        await expect(EmbeddedMongoServer.start({ port: 0, dbPath })).rejects.toThrow(/already open/);
      } finally {
        await second.stop();
      }
    } finally {
      dir.remove();
    }
  });
});

describe('crash safety', () => {
  it('keeps every acknowledged insert after SIGKILL and reopens the data directory', async () => {
    const dir = tempDir();
    try {
      const acknowledged = await runWriterUntilKilled(dir.path, 300);
      const harness = await startHarness({ dbPath: dir.path });
      try {
        const docs = harness.client.db('crash').collection<AnyDoc>('docs');
        const stored = new Set(
          (await docs.find({}, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id as number),
        );
        expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
        await docs.insertOne({ _id: 'after-restart' });
        expect(await docs.countDocuments({ _id: 'after-restart' })).toBe(1);
      } finally {
        await harness.stop();
      }
    } finally {
      dir.remove();
    }
  });
});

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startHarness, tempDir, type AnyDoc } from './helpers';

/** Starts the writer and resolves with every acknowledged _id once `count` were acknowledged and it was SIGKILLed. */
function runWriterUntilKilled(dbPath: string, count: number): Promise<number[]> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'crash-writer.js'), dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
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
    child.once('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(acknowledged) : reject(new Error(`writer exited without being killed (${signal})`))));
  });
}

describe('crash safety', () => {
  it('keeps every acknowledged insert after SIGKILL and reopens the data directory', async () => {
    const dir = tempDir();
    try {
      const acknowledged = await runWriterUntilKilled(dir.path, 300);
      const harness = await startHarness({ dbPath: dir.path });
      try {
        const docs = harness.client.db('crash').collection<AnyDoc>('docs');
        const stored = new Set((await docs.find({}, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id as number));
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

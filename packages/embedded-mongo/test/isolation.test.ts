import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { open } from 'lmdb';
import { MongoClient, type Collection } from 'mongodb';
import { EmbeddedMongoServer, type EmbeddedMongoOptions } from '../src';
import { WireListener } from '../src/worker/listener';
import { startHarness, tempDir, type AnyDoc } from './helpers';

const DOCS = 100_000;

async function seed(collection: Collection<AnyDoc>): Promise<void> {
  for (let start = 0; start < DOCS; start += 10_000) {
    const ids = Array.from({ length: 10_000 }, (_, i) => start + i);
    const batch = ids.map((id) => ({ _id: id, plain: id % 977, group: id % 10 }));
    await collection.insertMany(batch, { ordered: false });
  }
}

/**
 * Runs an unindexed aggregation over every document three times while this thread's event loop delay is
 * recorded; returns the mean aggregation time and the longest loop stall, in ms.
 */
async function aggregateWhileMonitoring(
  collection: Collection<AnyDoc>,
): Promise<{ meanQuery: number; longestStall: number }> {
  const pipeline = [{ $match: { plain: { $gte: 0 } } }, { $group: { _id: '$group', total: { $sum: '$plain' } } }];
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const durations: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    expect(await collection.aggregate(pipeline).toArray()).toHaveLength(10);
    durations.push(performance.now() - started);
  }
  histogram.disable();
  const meanQuery = durations.reduce((sum, duration) => sum + duration, 0) / durations.length;
  return { meanQuery, longestStall: histogram.max / 1e6 };
}

describe('isolation from the caller', () => {
  it("keeps the caller's event loop ticking while a client runs a full-scan aggregation", async () => {
    const harness = await startHarness();
    try {
      const docs = harness.client.db('iso').collection<AnyDoc>('docs');
      await seed(docs);
      const { meanQuery, longestStall } = await aggregateWhileMonitoring(docs);
      // Were the server on this thread, the longest aggregation (>= the mean) would stall the loop for about its
      // whole duration: a stall below half the mean cannot happen then (the control below shows it).
      expect(longestStall).toBeLessThan(meanQuery / 2);
    } finally {
      await harness.stop();
    }
  });

  it('(control) measures a stall as long as the aggregation when the server shares the loop', async () => {
    const listener = await WireListener.start({ port: 0 }, '127.0.0.1');
    const client = await MongoClient.connect(`mongodb://127.0.0.1:${listener.port}`);
    try {
      const docs = client.db('iso').collection<AnyDoc>('docs');
      await seed(docs);
      const { meanQuery, longestStall } = await aggregateWhileMonitoring(docs);
      expect(longestStall).toBeGreaterThanOrEqual(meanQuery / 2);
    } finally {
      await client.close();
      await listener.stop();
    }
  });
});

/** `npm run db` from the compiled package, on `dbPath`; resolves once it printed its URI. */
function startCli(dbPath: string): Promise<{ child: ChildProcess; uri: string }> {
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error('build the package first (npm run build -w @ccb/embedded-mongo)');
  const child = spawn(process.execPath, [cli, '--port', '0', '--dbpath', dbPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (uri) => resolve({ child, uri }));
  });
}

describe('start and stop through the worker', () => {
  it('rejects start on a directory held by a server in another process, opens it after that one stopped', async () => {
    const dir = tempDir();
    try {
      const { child, uri } = await startCli(dir.path);
      const client = await MongoClient.connect(uri);
      await client.db('held').collection<AnyDoc>('docs').insertOne({ _id: 1, by: 'cli' });
      await client.close();
      const second = EmbeddedMongoServer.start({ port: 0, dbPath: dir.path });
      await expect(second).rejects.toThrow(`in use by process ${child.pid}`);

      child.removeAllListeners('exit');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const harness = await startHarness({ dbPath: dir.path });
      try {
        const docs = harness.client.db('held').collection<AnyDoc>('docs');
        expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, by: 'cli' });
      } finally {
        await harness.stop();
      }
    } finally {
      dir.remove();
    }
  });

  it('rejects start on a port in use with the listen error', async () => {
    const first = await EmbeddedMongoServer.start({ port: 0 });
    try {
      await expect(EmbeddedMongoServer.start({ port: first.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await first.stop();
    }
  });

  it('rejects start on a store holding a corrupt document and releases the directory', async () => {
    const dir = tempDir();
    try {
      const harness = await startHarness({ dbPath: dir.path });
      await harness.client.db('bad').collection<AnyDoc>('docs').insertOne({ _id: 1 });
      await harness.stop();
      const root = open({ path: dir.path, noSubdir: false, maxDbs: 4 });
      const docs = root.openDB<Buffer, Buffer>({ name: 'docs', encoding: 'binary', keyEncoding: 'binary' });
      const [key] = [...docs.getKeys()];
      await docs.put(key, Buffer.from([1, 2, 3]));
      await root.close();

      await expect(EmbeddedMongoServer.start({ port: 0, dbPath: dir.path })).rejects.toThrow(/BSON/i);
      expect(existsSync(join(dir.path, 'embedded-mongo.lock'))).toBe(false);
    } finally {
      dir.remove();
    }
  });

  const onLinux = process.platform === 'linux' ? it : it.skip;

  /** The nice values of the threads a server start added to this process, and the caller's own. */
  async function threadNices(options: EmbeddedMongoOptions): Promise<{ caller: number; added: number[] }> {
    const niceByThread = (): Map<string, number> =>
      new Map(
        readdirSync('/proc/self/task').map((tid) => {
          const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
          return [tid, Number(fields[16])]; // field 19 of stat: nice
        }),
      );
    const before = niceByThread();
    const server = await EmbeddedMongoServer.start({ port: 0, ...options });
    try {
      const added = [...niceByThread()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
      const caller = niceByThread().get(String(process.pid))!;
      expect(caller).toBe(before.get(String(process.pid)));
      return { caller, added };
    } finally {
      await server.stop();
    }
  }

  onLinux('runs the server thread 10 nice levels below the caller', async () => {
    const { caller, added } = await threadNices({});
    expect(added).toContain(Math.min(19, caller + 10));
  });

  onLinux("keeps the caller's priority with lowerPriority: false (the CLI)", async () => {
    const { caller, added } = await threadNices({ lowerPriority: false });
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((nice) => nice === caller)).toBe(true);
  });

  it("reports the server thread's unexpected death as an 'error' event; its clients' commands fail", async () => {
    const server = await EmbeddedMongoServer.start({ port: 0 });
    const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 2000 });
    try {
      await client.db('dead').collection<AnyDoc>('docs').insertOne({ _id: 1 });
      const reported = new Promise<Error>((resolve) => server.once('error', resolve));
      // No command can kill the thread; the test hook terminates it from outside, as a fatal error in it would.
      expect(await EmbeddedMongoServer.killThreadsForTests()).toBe(1);
      expect((await reported).message).toMatch(/server thread died/);
      await expect(client.db('dead').collection<AnyDoc>('docs').findOne({ _id: 1 })).rejects.toThrow();
      expect(await EmbeddedMongoServer.killThreadsForTests()).toBe(0);
    } finally {
      await client.close(true);
      await server.stop();
    }
  });
});

describe("the server thread's heap limit (maxHeapMb)", () => {
  /** `serverStatus.embeddedMongo.heap` of a server started with these options. */
  async function heapOf(options: EmbeddedMongoOptions): Promise<{ usedMb: number; limitMb: number }> {
    const harness = await startHarness(options);
    try {
      const status = await harness.client.db('admin').command({ serverStatus: 1 });
      return status.embeddedMongo.heap as { usedMb: number; limitMb: number };
    } finally {
      await harness.stop();
    }
  }

  // V8's limit is the old generation's (the option) plus the young generation's few tens of MiB.
  it('gives the thread the limit asked for', async () => {
    const { usedMb, limitMb } = await heapOf({ maxHeapMb: 1500 });
    expect(limitMb).toBeGreaterThanOrEqual(1500);
    expect(limitMb).toBeLessThan(1600);
    expect(usedMb).toBeGreaterThan(0);
  });

  it("defaults to half the machine's memory, beyond V8's own default of about 4 GiB on a large machine", async () => {
    const { limitMb } = await heapOf({});
    expect(limitMb).toBeGreaterThanOrEqual(Math.floor(totalmem() / 2 ** 21));
  });

  it('refuses a limit that is not a positive integer of MiB, and releases the directory', async () => {
    const dir = tempDir();
    try {
      for (const maxHeapMb of [0, -1, 1.5, NaN]) {
        await expect(EmbeddedMongoServer.start({ port: 0, dbPath: dir.path, maxHeapMb })).rejects.toThrow(
          /maxHeapMb must be a positive integer/,
        );
      }
      const server = await EmbeddedMongoServer.start({ port: 0, dbPath: dir.path });
      await server.stop();
    } finally {
      dir.remove();
    }
  });
});

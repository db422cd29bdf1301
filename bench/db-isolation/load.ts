import { MongoClient, type Collection } from 'mongodb';
import { createInterface } from 'node:readline';

/**
 * The database load of `run.ts`, in its own process with the official driver against the app's embedded database:
 * `load.ts seed URI` inserts 100,000 documents; `load.ts loop URI` runs an unindexed aggregation over all of them
 * back to back while running. Commands on stdin, one per line: `go` starts the loop (answers `running` once the
 * first aggregation is sent), `pause` stops it (answers `paused` once the aggregation in flight finished), `stats`
 * answers `{runs, meanMs}` as one JSON line and ends the process.
 */
const DOCS = 100_000;
const PIPELINE = [{ $match: { plain: { $gte: 0 } } }, { $group: { _id: '$group', total: { $sum: '$plain' } } }];
const [mode, uri] = process.argv.slice(2);
const say = (line: string): boolean => process.stdout.write(`${line}\n`);

async function seed(docs: Collection): Promise<void> {
  await docs.drop().catch(() => undefined);
  for (let start = 0; start < DOCS; start += 10_000) {
    const batch = Array.from({ length: 10_000 }, (_, i) => ({
      plain: (start + i) % 977,
      group: i % 10,
      text: 'lorem ipsum',
    }));
    await docs.insertMany(batch, { ordered: false });
  }
}

async function loop(docs: Collection): Promise<void> {
  const durations: number[] = [];
  let running: Promise<void> | undefined;
  let paused = true;
  const run = async (): Promise<void> => {
    while (!paused) {
      const started = performance.now();
      await docs.aggregate(PIPELINE).toArray();
      durations.push(performance.now() - started);
    }
  };
  for await (const command of createInterface({ input: process.stdin })) {
    if (command === 'go') {
      paused = false;
      running = run();
      say('running');
    } else if (command === 'pause') {
      paused = true;
      await running;
      say('paused');
    } else if (command === 'stats') {
      const meanMs = Math.round(durations.reduce((sum, ms) => sum + ms, 0) / durations.length);
      say(JSON.stringify({ runs: durations.length, meanMs }));
      return;
    }
  }
}

async function main(): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    const docs = client.db('bench-isolation').collection('docs');
    await (mode === 'seed' ? seed(docs) : loop(docs));
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

import { MongoClient } from 'mongodb';

/**
 * The database load of `run.ts`, in its own process with the official driver against the app's embedded database:
 * `load.ts seed URI` inserts 100,000 documents; `load.ts loop URI` runs an unindexed aggregation over all of them
 * back to back, prints `started` after the first one and, on SIGTERM, `{runs, meanMs}` as one JSON line.
 */
const DOCS = 100_000;
const PIPELINE = [{ $match: { plain: { $gte: 0 } } }, { $group: { _id: '$group', total: { $sum: '$plain' } } }];
const [mode, uri] = process.argv.slice(2);

async function seed(client: MongoClient): Promise<void> {
  const docs = client.db('bench-isolation').collection('docs');
  await docs.drop().catch(() => undefined);
  for (let start = 0; start < DOCS; start += 10_000) {
    const batch = Array.from({ length: 10_000 }, (_, i) => ({ plain: (start + i) % 977, group: i % 10, text: 'lorem ipsum' }));
    await docs.insertMany(batch, { ordered: false });
  }
}

async function loop(client: MongoClient): Promise<void> {
  const docs = client.db('bench-isolation').collection('docs');
  const durations: number[] = [];
  let running = true;
  process.once('SIGTERM', () => (running = false));
  while (running) {
    const started = performance.now();
    await docs.aggregate(PIPELINE).toArray();
    durations.push(performance.now() - started);
    if (durations.length === 1) process.stdout.write('started\n');
  }
  const meanMs = Math.round(durations.reduce((sum, ms) => sum + ms, 0) / durations.length);
  process.stdout.write(`${JSON.stringify({ runs: durations.length, meanMs })}\n`);
}

async function main(): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    await (mode === 'seed' ? seed(client) : loop(client));
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

import { ChildProcess, spawn } from 'node:child_process';
import { request, Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

/**
 * `npm run bench:db-isolation [-- --rounds 3 --seconds 5 --rate 200 --connections 4 --shared-loop]`
 * A cheap gateway call (`geoLocationServiceImpl.getCountryByCode(['NL'])`, no database access) at a fixed rate,
 * idle and while another process runs an unindexed aggregation over 100,000 documents back to back against the
 * app's embedded database (official driver, TCP). Idle and loaded phases alternate within each round; the figure
 * is the median of the rounds' p99 latencies and their ratio. Latency counts from each request's scheduled send
 * time, so a stalled server also delays (and charges) the requests queued behind it (no coordinated omission).
 * `--shared-loop` runs the database on the app's event loop instead (the control: how it was before the worker).
 */
const ROOT = join(__dirname, '..', '..');
const BODY = JSON.stringify({ beanId: 'geoLocationServiceImpl', functionName: 'getCountryByCode', args: ['NL'] });
const HEADERS = { 'content-type': 'application/json', 'lang-context': 'en', 'site-context': 'default' };

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '4' },
    'shared-loop': { type: 'boolean', default: false },
  },
});

function runTs(script: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['test/support/run-ts.js', script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Reads a child's stdout line by line; rejects if it ends first. */
function lineReader(child: ChildProcess): () => Promise<string> {
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`${child.spawnargs.join(' ')} ended its output (exit code ${child.exitCode})`);
    return value;
  };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', resolve));
}

function call(url: URL, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: HEADERS, agent }, (res) => {
      res.resume();
      res.once('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.once('error', reject);
    req.end(BODY);
  });
}

/** Latencies (ms) of `rate` calls per second for `seconds`, spread over `connections` paced loops. */
async function measure(base: string, seconds: number): Promise<number[]> {
  const url = new URL('/api/v1/bean/request', base);
  const connections = Number(values.connections);
  const interval = (1000 * connections) / Number(values.rate);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  const loop = async (offset: number): Promise<void> => {
    for (let scheduled = start + offset; scheduled < end; scheduled += interval) {
      const wait = scheduled - performance.now();
      if (wait > 0) await sleep(wait);
      await call(url, agent);
      latencies.push(performance.now() - scheduled);
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => loop((i * interval) / connections)));
  agent.destroy();
  return latencies;
}

const percentile = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1];
const median = (xs: number[]): number => percentile(xs, 50);
const ms = (x: number): string => `${x.toFixed(2)} ms`;

/** Measures while the aggregation loop runs; returns the latencies and what the load process did meanwhile. */
async function measureLoaded(url: string, databaseUri: string, seconds: number) {
  const load = runTs('bench/db-isolation/load.ts', ['loop', databaseUri]);
  const nextLine = lineReader(load);
  await nextLine(); // the first aggregation finished: the loop is running
  const latencies = await measure(url, seconds);
  load.kill('SIGTERM');
  const { runs, meanMs } = JSON.parse(await nextLine()) as { runs: number; meanMs: number };
  await exited(load);
  return { latencies, runs, meanMs };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-bench-'));
  const server = runTs('bench/db-isolation/server.ts', [], { DATA_DIR: dataDir, SHARED_LOOP: String(values['shared-loop']) });
  try {
    const { url, databaseUri } = JSON.parse(await lineReader(server)()) as { url: string; databaseUri: string };
    const seeding = runTs('bench/db-isolation/load.ts', ['seed', databaseUri]);
    if ((await exited(seeding)) !== 0) throw new Error('seeding failed');
    await measure(url, 2); // warm-up (JIT)
    const seconds = Number(values.seconds);
    const idle: number[] = [];
    const loaded: number[] = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      const quiet = await measure(url, seconds);
      const busy = await measureLoaded(url, databaseUri, seconds);
      idle.push(percentile(quiet, 99));
      loaded.push(percentile(busy.latencies, 99));
      const aggregation = `${busy.runs} aggregations, mean ${busy.meanMs} ms`;
      const p50s = `p50 idle ${ms(percentile(quiet, 50))}, loaded ${ms(percentile(busy.latencies, 50))}`;
      const line = `round ${round}: p99 idle ${ms(idle.at(-1)!)}, loaded ${ms(loaded.at(-1)!)}   ${p50s}   (${aggregation})`;
      process.stdout.write(`${line}\n`);
    }
    const ratio = median(loaded) / median(idle);
    process.stdout.write(`median p99: idle ${ms(median(idle))}, loaded ${ms(median(loaded))}, ratio ${ratio.toFixed(2)}x\n`);
  } finally {
    server.kill('SIGTERM');
    await exited(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

import { ChildProcess, spawn } from 'node:child_process';
import { request, Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

/**
 * `npm run bench:db-isolation [-- --rounds 10 --seconds 2 --rate 200 --connections 4 --shared-loop]`
 * A cheap gateway call (`geoLocationServiceImpl.getCountryByCode(['NL'])`, no database access) at a fixed rate,
 * idle and while another process runs an unindexed aggregation over 100,000 documents back to back against the
 * app's embedded database (official driver, TCP). Idle and loaded phases alternate every `seconds`, so drift on a
 * shared machine hits both alike; the figure is the p99 of all idle against all loaded latencies, and their ratio.
 * Latency counts from each request's scheduled send time, so a stalled server also delays (and charges) the
 * requests queued behind it (no coordinated omission).
 * `--shared-loop` runs the database on the app's event loop instead (the control: how it was before the worker).
 */
const ROOT = join(__dirname, '..', '..');
const BODY = JSON.stringify({ beanId: 'geoLocationServiceImpl', functionName: 'getCountryByCode', args: ['NL'] });
const HEADERS = { 'content-type': 'application/json', 'lang-context': 'en', 'site-context': 'default' };

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '2' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '4' },
    'shared-loop': { type: 'boolean', default: false },
  },
});

function runTs(script: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['test/support/run-ts.js', script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

/** Reads a child's stdout line by line; rejects if it ends first. */
function lineReader(child: ChildProcess): () => Promise<string> {
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`${child.spawnargs.join(' ')} ended its output (exit code ${child.exitCode})`);
    return line.value;
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

const percentile = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1];
const ms = (x: number): string => `${x.toFixed(2)} ms`;

/** The aggregation loop of `load.ts`, started and paused on request. */
function startLoad(databaseUri: string) {
  const load = runTs('bench/db-isolation/load.ts', ['loop', databaseUri]);
  const nextLine = lineReader(load);
  const ask = (command: string): Promise<string> => {
    load.stdin!.write(`${command}\n`);
    return nextLine();
  };
  return {
    go: () => ask('go'),
    pause: () => ask('pause'),
    stats: async () => {
      const stats = JSON.parse(await ask('stats')) as { runs: number; meanMs: number };
      load.stdin!.end(); // lets it exit
      return stats;
    },
    exited: exited(load),
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-bench-'));
  const sharedLoop = String(values['shared-loop']);
  const server = runTs('bench/db-isolation/server.ts', [], { DATA_DIR: dataDir, SHARED_LOOP: sharedLoop });
  try {
    const { url, databaseUri } = JSON.parse(await lineReader(server)()) as { url: string; databaseUri: string };
    const seeding = runTs('bench/db-isolation/load.ts', ['seed', databaseUri]);
    if ((await exited(seeding)) !== 0) throw new Error('seeding failed');
    const load = startLoad(databaseUri);
    await measure(url, 2); // warm-up (JIT)
    const seconds = Number(values.seconds);
    const idle: number[] = [];
    const loaded: number[] = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      const quiet = await measure(url, seconds);
      await load.go();
      const busy = await measure(url, seconds);
      await load.pause();
      idle.push(...quiet);
      loaded.push(...busy);
      const p99s = `p99 idle ${ms(percentile(quiet, 99))}, loaded ${ms(percentile(busy, 99))}`;
      const p50s = `p50 idle ${ms(percentile(quiet, 50))}, loaded ${ms(percentile(busy, 50))}`;
      process.stdout.write(`round ${String(round).padStart(2)}: ${p99s}   ${p50s}\n`);
    }
    const { runs, meanMs } = await load.stats();
    await load.exited;
    const [idleP99, loadedP99] = [percentile(idle, 99), percentile(loaded, 99)];
    process.stdout.write(`${runs} aggregations while loaded, mean ${meanMs} ms each\n`);
    const ratio = (loadedP99 / idleP99).toFixed(2);
    process.stdout.write(`all rounds: p99 idle ${ms(idleP99)}, loaded ${ms(loadedP99)}, ratio ${ratio}x\n`);
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

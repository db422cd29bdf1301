import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { stopChild } from '../child-process';
import { median } from '../median';

/**
 * `npm run bench:request-cost [-- --rounds 5 --seconds 3 --connections 10 --only GUEST --settle 5 --cpu-prof DIR]`
 * The cost of one request (issue 13). Starts, in one run, each in its own process on 127.0.0.1: a raw `node:http`
 * JSON echo, a minimal Nest-on-Express app with one `@Post` (the yardstick), and this product with the demo data
 * twice, logs silenced and logs at `info` to a file. Scenarios alternate within each round (drift on a shared
 * machine hits all alike); figures are medians of rounds. Reports server CPU per request (from /proc), p99 latency,
 * ratios to the minimal Nest route, and the idle resident memory of each server after start-up. Those servers run
 * under the TypeScript loader of the tests (`test/support/run-ts.js`, about 40 MB more for a small server, about
 * 150 MB more for the app); the idle memory of the product as `npm start` runs it is measured first, from a build
 * (`tsc -p tsconfig.build.json` into `dist/`) started alone with the demo data.
 * `--cpu-prof DIR` profiles the product processes (pair it with `--only`).
 */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships no types
const autocannon = require('autocannon') as Autocannon;

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    /** Run the scenarios whose name contains this text (the yardstick always runs, for the ratios). */
    only: { type: 'string', default: '' },
    /** Seconds to wait after start-up before reading the idle memory. */
    settle: { type: 'string', default: '5' },
    'cpu-prof': { type: 'string' },
  },
});

const ROOT = join(__dirname, '..', '..');
const YARDSTICK = 'minimal Nest, one @Post';
const GATEWAY_CALL = { beanId: 'geoLocationServiceImpl', functionName: 'getCountryByCode', args: ['NL'] };
const CONTEXT = { 'lang-context': 'en', 'site-context': 'default' };

type ServerName = 'raw' | 'nest' | 'product' | 'productLogging';
interface Server {
  process: ChildProcess;
  url: string;
  token?: string;
}
interface Scenario {
  name: string;
  server: ServerName;
  path: string;
  admin?: boolean;
}

const ALL_SCENARIOS: Scenario[] = [
  { name: 'raw node:http echo', server: 'raw', path: '/' },
  { name: YARDSTICK, server: 'nest', path: '/echo' },
  { name: 'gateway, GUEST', server: 'product', path: '/api/v1/bean/request' },
  { name: 'gateway, ADMIN token', server: 'product', path: '/api/v1/bean/request', admin: true },
  { name: 'gateway, GUEST, logs info to file', server: 'productLogging', path: '/api/v1/bean/request' },
  { name: 'plain route of the app, GUEST', server: 'product', path: '/bench/country' },
];
const SCENARIOS = ALL_SCENARIOS.filter((s) => s.name === YARDSTICK || s.name.includes(values.only));

type Stdout = 'ignore' | number;

function start(entry: string, env: Record<string, string>, stdout: Stdout, profile = false): Promise<Server> {
  const flags = profile && values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
  const child = spawn(process.execPath, [...flags, 'test/support/run-ts.js', `bench/request-cost/${entry}`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', stdout, 'inherit', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}`)));
    createInterface({ input: child.stdio[3] as Readable }).once('line', (line) =>
      resolve({ process: child, ...(JSON.parse(line) as { url: string; token?: string }) }),
    );
  });
}

/** User and system CPU time of a process in µs, from /proc (Linux; clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Resident set size in MB, from /proc (all threads: the embedded database's worker included). */
function rssMegabytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

interface Sample {
  cpuPerRequest: number;
  p99: number;
}

async function measure(servers: Record<ServerName, Server>, scenario: Scenario, seconds: number): Promise<Sample> {
  const server = servers[scenario.server];
  const auth = scenario.admin ? { authorization: `Bearer ${server.token}` } : {};
  const cpuBefore = cpuMicros(server.process.pid!);
  const result = await autocannon({
    url: server.url + scenario.path,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...CONTEXT, ...auth },
    body: JSON.stringify(GATEWAY_CALL),
    connections: Number(values.connections),
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  const cpuPerRequest = (cpuMicros(server.process.pid!) - cpuBefore) / result.requests.total;
  return { cpuPerRequest, p99: result.latency.p99 };
}

async function runRounds(servers: Record<ServerName, Server>): Promise<Map<string, Sample[]>> {
  for (const scenario of SCENARIOS) await measure(servers, scenario, 1); // warm-up (JIT, caches)
  const samples = new Map(SCENARIOS.map((s) => [s.name, [] as Sample[]]));
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = SCENARIOS.map((_, i) => SCENARIOS[(i + round) % SCENARIOS.length]);
    for (const scenario of order) {
      samples.get(scenario.name)!.push(await measure(servers, scenario, Number(values.seconds)));
    }
  }
  return samples;
}

function report(samples: Map<string, Sample[]>, logFile: string): void {
  const cpuOf = (name: string) => median(samples.get(name)!.map((s) => s.cpuPerRequest));
  const yardstick = cpuOf(YARDSTICK);
  const line = (text: string) => process.stdout.write(`${text}\n`);
  line(`${values.rounds} rounds of ${values.seconds} s, ${values.connections} connections, medians`);
  line(`| scenario | µs CPU per request | × minimal Nest | p99 ms |\n|---|---:|---:|---:|`);
  for (const [name, list] of samples) {
    const p99 = median(list.map((s) => s.p99));
    line(`| ${name} | ${cpuOf(name).toFixed(0)} | ${(cpuOf(name) / yardstick).toFixed(2)} | ${p99} |`);
  }
  const ratio = (a: string, b: string, label: string) => {
    if (samples.has(a) && samples.has(b)) line(`${label}: ${(cpuOf(a) / cpuOf(b)).toFixed(2)}`);
  };
  ratio('gateway, GUEST, logs info to file', 'gateway, GUEST', 'logs at info to a file / silenced (CPU)');
  ratio('plain route of the app, GUEST', 'gateway, GUEST', 'gateway / plain route by throughput per CPU');
  line(`access log written: ${(statSync(logFile).size / 1e6).toFixed(1)} MB`);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, Number(values.settle) * 1000));

/** `dist/main.js` with the demo data and an in-memory database, alone on the machine's side of the run. */
async function reportCompiledIdleMemory(dataDir: string): Promise<void> {
  const tsc = ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'];
  execFileSync(process.execPath, tsc, { cwd: ROOT, stdio: 'inherit' });
  const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, EMBEDDED_DB_IN_MEMORY: 'true', SEED_DEMO: 'true' };
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      JWT_SECRET: randomBytes(32).toString('hex'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`dist/main.js exited with ${code}`)));
      createInterface({ input: child.stdout }).on('line', (line) => line.includes('"Listening on') && resolve());
    });
    await settle();
    const rss = rssMegabytes(child.pid!).toFixed(0);
    process.stdout.write(`idle RSS of dist/main.js with the demo data (${values.settle} s settled): ${rss} MB\n`);
  } finally {
    await stopChild(child);
  }
}

async function reportIdleMemory(servers: Record<ServerName, Server>): Promise<void> {
  await settle();
  const line = (text: string) => process.stdout.write(`${text}\n`);
  line(`idle RSS after start-up under the TypeScript loader (${values.settle} s settled):`);
  for (const [name, server] of Object.entries(servers)) {
    line(`  ${name.padEnd(15)} ${rssMegabytes(server.process.pid!).toFixed(0)} MB`);
  }
  const usage = (await (await fetch(`${servers.product.url}/bench/memory`)).json()) as NodeJS.MemoryUsage;
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const heap = `heapUsed ${mb(usage.heapUsed)}, heapTotal ${mb(usage.heapTotal)}`;
  line(`  product main thread: ${heap}, external ${mb(usage.external)}, arrayBuffers ${mb(usage.arrayBuffers)}`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ccb-request-cost-'));
  const logFile = join(dir, 'access.log');
  const logFd = openSync(logFile, 'w');
  const servers: Partial<Record<ServerName, Server>> = {};
  try {
    await reportCompiledIdleMemory(join(dir, 'compiled'));
    // One at a time: start-up is CPU-heavy, and the idle figures should not include a neighbour's start.
    servers.raw = await start('raw-echo.ts', {}, 'ignore');
    servers.nest = await start('minimal-nest.ts', {}, 'ignore');
    servers.product = await start('product.ts', { DATA_DIR: join(dir, 'a') }, 'ignore', true);
    servers.productLogging = await start('product.ts', { DATA_DIR: join(dir, 'b'), LOG_LEVEL: 'info' }, logFd, true);
    const all = servers as Record<ServerName, Server>;
    await reportIdleMemory(all);
    report(await runRounds(all), logFile);
  } finally {
    for (const server of Object.values(servers)) await stopChild(server.process);
    closeSync(logFd);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

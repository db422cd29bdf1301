import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { stopChild } from '../child-process';
import { median } from '../median';

/**
 * `npm run bench:gateway [-- --rounds 5 --seconds 3 --connections 10 --only 'gateway, no token' --cpu-prof DIR]`
 * The tree through `POST /api/v1/bean/request` against a plain controller returning the same tree, without and
 * with an ADMIN bearer token. The server runs in its own process (one core), autocannon here (the other).
 * Scenarios alternate within each round, so drift on a noisy machine hits all alike; figures are medians. Besides
 * req/s it reports the server's CPU time per request, which other load on the machine disturbs far less.
 */
interface AutocannonResult {
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships no types
const autocannon = require('autocannon') as Autocannon;

interface Scenario {
  name: string;
  path: string;
  body: object;
  withToken: boolean;
}

const ROOT = join(__dirname, '..', '..');
const HEADERS = { 'content-type': 'application/json', 'lang-context': 'en', 'site-context': 'default' };
const ALL_SCENARIOS: Scenario[] = [
  {
    name: 'gateway, no token',
    path: '/api/v1/bean/request',
    body: { beanId: 'benchTree', functionName: 'getElements', args: [] },
    withToken: false,
  },
  { name: 'plain, no token', path: '/bench/tree', body: {}, withToken: false },
  {
    name: 'gateway, ADMIN token',
    path: '/api/v1/bean/request',
    body: { beanId: 'dummyTree', functionName: 'getElements', args: [] },
    withToken: true,
  },
  { name: 'plain, ADMIN token', path: '/bench/tree/admin', body: {}, withToken: true },
];

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    /** Run the scenarios whose name contains this text (to profile one of them). */
    only: { type: 'string', default: '' },
    'cpu-prof': { type: 'string' },
  },
});

const SCENARIOS = ALL_SCENARIOS.filter((s) => s.name.includes(values.only));

function startServer(dataDir: string): Promise<{ server: ChildProcess; url: string; token: string }> {
  const profile = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
  const server = spawn(process.execPath, [...profile, 'test/support/run-ts.js', 'bench/gateway/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    createInterface({ input: server.stdout }).once('line', (line) =>
      resolve({ server, ...(JSON.parse(line) as { url: string; token: string }) }),
    );
  });
}

interface Sample {
  rate: number;
  /** Server CPU time (user + system) per request, µs. */
  cpuPerRequest: number;
}

async function serverCpuMicros(url: string): Promise<number> {
  const usage = (await (await fetch(`${url}/bench/cpu`)).json()) as NodeJS.CpuUsage;
  return usage.user + usage.system;
}

async function measure(url: string, token: string, scenario: Scenario, seconds: number): Promise<Sample> {
  const cpuBefore = await serverCpuMicros(url);
  const headers = scenario.withToken ? { ...HEADERS, authorization: `Bearer ${token}` } : HEADERS;
  const result = await autocannon({
    url: url + scenario.path,
    method: 'POST',
    headers,
    body: JSON.stringify(scenario.body),
    connections: Number(values.connections),
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const cpu = (await serverCpuMicros(url)) - cpuBefore;
  return { rate: result.requests.average, cpuPerRequest: cpu / result.requests.total };
}

function report(samples: Map<string, Sample[]>): void {
  const rates = new Map([...samples].map(([name, list]) => [name, median(list.map((s) => s.rate))]));
  const cpu = new Map([...samples].map(([name, list]) => [name, median(list.map((s) => s.cpuPerRequest))]));
  for (const [name, list] of samples) {
    const rounds = list.map((s) => Math.round(s.rate)).join(', ');
    process.stdout.write(
      `${name.padEnd(22)} ${String(Math.round(rates.get(name)!)).padStart(6)} req/s  ${cpu.get(name)!.toFixed(0).padStart(5)} µs CPU/req   rounds: ${rounds}\n`,
    );
  }
  for (const auth of ['no token', 'ADMIN token']) {
    const [gateway, plain] = [`gateway, ${auth}`, `plain, ${auth}`];
    if (!samples.has(gateway) || !samples.has(plain)) continue;
    const byRate = rates.get(gateway)! / rates.get(plain)!;
    const byCpu = cpu.get(plain)! / cpu.get(gateway)!;
    process.stdout.write(
      `gateway/plain, ${auth}: ${percent(byRate)} by req/s, ${percent(byCpu)} by server CPU per request\n`,
    );
  }
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

async function runRounds(url: string, token: string): Promise<Map<string, Sample[]>> {
  for (const scenario of SCENARIOS) await measure(url, token, scenario, 1); // warm-up (JIT, caches)
  const samples = new Map(SCENARIOS.map((s) => [s.name, [] as Sample[]]));
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = SCENARIOS.map((_, i) => SCENARIOS[(i + round) % SCENARIOS.length]);
    for (const scenario of order)
      samples.get(scenario.name)!.push(await measure(url, token, scenario, Number(values.seconds)));
  }
  return samples;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-bench-'));
  try {
    const { server, url, token } = await startServer(dataDir);
    try {
      report(await runRounds(url, token));
    } finally {
      await stopChild(server);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

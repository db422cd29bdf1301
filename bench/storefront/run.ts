import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { buildDemoCatalogue } from '../../src/seed/demo-data';

/**
 * `npm run bench:storefront [-- --seconds 10 --connections 10]`
 * A GUEST storefront through `POST /api/v1/bean/request` against the demo marketplace: search filters and country
 * lookups, each mix cycling through its calls on every connection. The server runs in its own process (one core),
 * autocannon here (the other). Reports requests per second, latency percentiles and the server's CPU time per
 * request (steadier than throughput on a shared machine) per mix.
 */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships no types
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

const ROOT = join(__dirname, '..', '..');
const demo = buildDemoCatalogue();
const attribute = (code: string) => String(demo.attributes.find((a) => a.code === code)!._id);
const sku = String(demo.sellerSkus.find((offer) => offer.quantity > 0)!.sku);

const FILTERS: [string, unknown[]][] = [
  ['getCountriesOfOriginFilter', ['']],
  ['getCountriesOfSellersFilter', ['']],
  ['getGeneticTypeFilter', [sku]],
  ['getDynamicFilters', ['', 'OPTION']],
  ['getDynamicOptionFilters', ['', attribute('light')]],
  ['getDynamicValueFilters', ['', attribute('height')]],
  ['getProductsListFilter', []],
  ['getProductsListByRequestFilter', ['ros']],
];
const COUNTRIES: [string, unknown[]][] = [
  ['getCountries', []],
  ['getCountryByCode', ['NL']],
  ['searchCountriesPaged', ['{"searchTerm":"land","limit":10}']],
  ['getCountryNameBySellerId', [String(demo.sellers[2]._id)]],
];
const MIXES: Record<string, { beanId: string; calls: [string, unknown[]][] }[]> = {
  'search filters': [{ beanId: 'ecomRemainsSearchEngineServiceImpl', calls: FILTERS }],
  'country lookups': [{ beanId: 'geoLocationServiceImpl', calls: COUNTRIES }],
  'storefront mix': [
    { beanId: 'ecomRemainsSearchEngineServiceImpl', calls: FILTERS },
    { beanId: 'geoLocationServiceImpl', calls: COUNTRIES },
  ],
};

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '10' } },
});

function startServer(dataDir: string): Promise<{ server: ChildProcess; url: string }> {
  const server = spawn(process.execPath, ['test/support/run-ts.js', 'bench/storefront/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    createInterface({ input: server.stdout! }).once('line', (line) =>
      resolve({ server, ...(JSON.parse(line) as { url: string }) }),
    );
  });
}

function requests(mix: { beanId: string; calls: [string, unknown[]][] }[]) {
  return mix.flatMap(({ beanId, calls }) =>
    calls.map(([functionName, args]) => ({ body: JSON.stringify({ beanId, functionName, args }) })),
  );
}

/** User and system CPU time of a process in µs, from /proc (Linux; clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function measure(url: string, name: string, seconds: number): Promise<AutocannonResult> {
  const result = await autocannon({
    url: `${url}/api/v1/bean/request`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'lang-context': 'de', 'site-context': 'default' },
    requests: requests(MIXES[name]),
    connections: Number(values.connections),
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return result;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-bench-'));
  const { server, url } = await startServer(dataDir);
  try {
    for (const name of Object.keys(MIXES)) await measure(url, name, 1); // warm-up (JIT)
    for (const name of Object.keys(MIXES)) {
      const cpuBefore = cpuMicros(server.pid!);
      const { requests, latency } = await measure(url, name, Number(values.seconds));
      const cpuPerRequest = Math.round((cpuMicros(server.pid!) - cpuBefore) / requests.total);
      const rate = `${Math.round(requests.average)} req/s`;
      const latencies = `p50 ${latency.p50} ms   p99 ${latency.p99} ms`;
      const line = `${name.padEnd(16)} ${rate}   ${latencies}   ${cpuPerRequest} µs CPU/req`;
      process.stdout.write(`${line}\n`);
    }
  } finally {
    server.removeAllListeners('exit');
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

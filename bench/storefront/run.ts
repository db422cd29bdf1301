import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { stopChild } from '../child-process';
import { buildDemoCatalogue } from '../../src/seed/demo-data';
import { median } from '../median';
import {
  BenchRequest,
  beanRequest,
  demoTokens,
  send,
  stockAdjustment,
  StockedOffer,
  stockedOffers,
  Trading,
} from './trading';

/**
 * `npm run bench:storefront [-- --rounds 3 --seconds 5 --connections 10 --scale 100 --each --only search
 * --trade 5 --checkouts 2 --data-dir DIR --cache-mb 0 --cpu-prof DIR --warmup 20]`
 * A GUEST storefront through `POST /api/v1/bean/request` against the demo marketplace (`--scale` copies of its
 * catalogue): search filters, product listing pages and product details, country lookups, each mix cycling through its calls on every connection, and the
 * baseline, one cheap call alone (`getCountryByCode('NL')`, answered from memory). The server runs in its own
 * process (one core), autocannon here (the other); mixes alternate within each round. Reports per mix the medians of
 * requests per second, latency and the server's CPU time per request (steadier than throughput on a shared
 * machine), of which its main thread's ("app thread": the app; the rest is the embedded database's thread and V8's
 * helper threads, its garbage collection), and that CPU time as a ratio to the baseline's in the same run. `--each` adds one mix per filter, listing, detail and type-ahead call;
 * `--only` keeps the mixes whose name contains the text, or one of `|`-separated texts (and the baseline); `--cpu-prof DIR` profiles the server
 * running the selected mixes alone (no baseline). Trading mode (`trading.ts`): `--trade N` has sellers adjust the
 * stock of N offers a second and `--checkouts M` has buyers check out M times a second, through their own calls,
 * while the guests browse, so every figure includes that work. The **stock adjustment** mix is the seller's stock
 * call itself (each connection on offers of its own, one unit off and back on), its storefront index update
 * included. `--data-dir DIR` runs on the database files in DIR (kept; seeded there first unless already, e.g. by
 * `npm run seed -- --scale 1000`) instead of a fresh one in memory. `--cache-mb N` sets the server's
 * `STOREFRONT_CACHE_MB` (0: no result cache, every read answered from the storefront index; default: the app's).
 * `--warmup S`: seconds each mix runs unmeasured before the rounds (default 1); the stock adjustment's code is still
 * being optimized by V8 for tens of seconds (bench/README.md, `stockadj2`), so its steady state needs about 20.
 */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships no types
const autocannon = require('autocannon') as Autocannon;

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    scale: { type: 'string', default: '1' },
    each: { type: 'boolean', default: false },
    only: { type: 'string', default: '' },
    trade: { type: 'string', default: '0' },
    checkouts: { type: 'string', default: '0' },
    'data-dir': { type: 'string' },
    'cache-mb': { type: 'string' },
    'cpu-prof': { type: 'string' },
    warmup: { type: 'string', default: '1' },
  },
});

const ROOT = join(__dirname, '..', '..');
const demo = buildDemoCatalogue(Number(values.scale));
const attribute = (code: string) => String(demo.attributes.find((a) => a.code === code)!._id);
const sku = String(demo.sellerSkus.find((offer) => offer.quantity > 0)!.sku);

type Call = [functionName: string, args: unknown[]];
/** A mix: the calls each connection cycles through (`connection` numbers them from 0). */
type Mix = (connection: number) => BenchRequest[];
const SEARCH = 'ecomRemainsSearchEngineServiceImpl';
const GEO = 'geoLocationServiceImpl';
const BASELINE = 'cheap call (baseline)';
const STOCK = 'stock adjustment (seller)';
/** Offers per connection in the stock adjustment mix. */
const STOCK_OFFERS = 5;

const FILTERS: Call[] = [
  ['getCountriesOfOriginFilter', ['']],
  ['getCountriesOfSellersFilter', ['']],
  ['getGeneticTypeFilter', [sku]],
  ['getDynamicFilters', ['', 'OPTION']],
  ['getDynamicOptionFilters', ['', attribute('light')]],
  ['getDynamicValueFilters', ['', attribute('height')]],
  ['getProductsListFilter', []],
  ['getProductsListByRequestFilter', ['ros']],
];
/** The storefront's product pages: a listing page of each kind and two product details. */
const PRODUCTS: Call[] = [
  ['listProducts', [{}]],
  ['listProducts', [{ q: 'ficus', sort: 'price' }]],
  ['listProducts', [{ q: 'ficus' }]],
  ['listProducts', [{ filters: [{ attributeId: attribute('light'), values: ['Shade'] }], sort: '-price' }]],
  ['listProducts', [{ minPrice: 500, maxPrice: 2000, currency: 'EUR', sort: 'newest', page: 1 }]],
  ['getProductDetail', [String(demo.products[0]._id)]],
  ['getProductDetail', [String(demo.products[11]._id)]],
];
/**
 * Calls measured only under `--each`, in no mix: the type-ahead, and searches in a descending sort (read backwards
 * through the ascending index's merged scans) and with a letter missing (the `s:` points of each position).
 */
const EACH_ONLY: Call[] = [
  ['suggest', ['fic']],
  ['listProducts', [{ q: 'ficus', sort: '-price' }]],
  ['listProducts', [{ q: 'monstra', sort: 'price' }]],
];
const COUNTRIES: Call[] = [
  ['getCountries', []],
  ['getCountryByCode', ['NL']],
  ['searchCountriesPaged', ['{"searchTerm":"land","limit":10}']],
  ['getCountryNameBySellerId', [String(demo.sellers[2]._id)]],
];
/** A call's mix name under `--each`: the function, and its arguments where one function is called with several. */
function callName([functionName, args]: Call): string {
  if (FILTERS.some(([name]) => name === functionName)) return functionName;
  return `${functionName} ${JSON.stringify(args)}`.slice(0, 60);
}
const beanMix =
  (...parts: { beanId: string; calls: Call[] }[]): Mix =>
  () =>
    parts.flatMap(({ beanId, calls }) => calls.map(([name, args]) => beanRequest(beanId, name, args)));

/**
 * Each connection puts one unit on and takes it back off each of its own offers, so stock stays as it was; one offer
 * per product, so that two connections never refresh one product's entries at once (a seller's single adjustment,
 * not a race the bench would make up).
 */
function stockMix(tokens: Map<string, string>, offers: StockedOffer[]): Mix {
  const connections = Number(values.connections);
  const seen = new Set<string>();
  const onePerProduct = offers.filter((offer) => !seen.has(offer.product) && seen.add(offer.product));
  return (connection) =>
    Array.from(
      { length: STOCK_OFFERS },
      (_, i) => onePerProduct[(connection + i * connections) % onePerProduct.length],
    ).flatMap((offer) => [1, -1].map((delta) => stockAdjustment(tokens.get(offer.seller)!, offer, delta)));
}

const MIX_NAMES = [
  BASELINE,
  'search filters',
  'country lookups',
  'product listing',
  'product detail',
  'storefront mix',
  STOCK,
  ...(values.each ? [...FILTERS, ...PRODUCTS, ...EACH_ONLY].map(callName) : []),
];
/** A profile shows the selected mixes alone; otherwise the baseline always runs, for the ratios. */
const withBaseline = !values['cpu-prof'];
/** `--only a|b`: the mixes whose name contains any of the alternatives. */
const selected = (name: string) => values.only.split('|').some((text) => name.includes(text));
const SELECTED = MIX_NAMES.filter((name) => (withBaseline && name === BASELINE) || selected(name));

function mixes(tokens: Map<string, string>, offers: StockedOffer[]): Map<string, Mix> {
  const all: Record<string, Mix> = {
    [BASELINE]: beanMix({ beanId: GEO, calls: [['getCountryByCode', ['NL']]] }),
    'search filters': beanMix({ beanId: SEARCH, calls: FILTERS }),
    'country lookups': beanMix({ beanId: GEO, calls: COUNTRIES }),
    'product listing': beanMix({ beanId: SEARCH, calls: PRODUCTS.filter(([name]) => name === 'listProducts') }),
    'product detail': beanMix({ beanId: SEARCH, calls: PRODUCTS.filter(([name]) => name === 'getProductDetail') }),
    'storefront mix': beanMix({ beanId: SEARCH, calls: [...FILTERS, ...PRODUCTS] }, { beanId: GEO, calls: COUNTRIES }),
    [STOCK]: stockMix(tokens, offers),
    ...Object.fromEntries(
      [...FILTERS, ...PRODUCTS, ...EACH_ONLY].map((call) => [
        callName(call),
        beanMix({ beanId: SEARCH, calls: [call] }),
      ]),
    ),
  };
  return new Map(SELECTED.map((name) => [name, all[name]]));
}

function startServer(dataDir: string, inMemory: boolean): Promise<{ server: ChildProcess; url: string }> {
  const profile = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
  const server = spawn(process.execPath, [...profile, 'test/support/run-ts.js', 'bench/storefront/server.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      EMBEDDED_DB_IN_MEMORY: String(inMemory),
      SEED_SCALE: values.scale,
      ...(values['cache-mb'] === undefined ? {} : { STOREFRONT_CACHE_MB: values['cache-mb'] }),
      // A 1000× catalogue may need more than the database thread's default heap (README, EMBEDDED_DB_MAX_HEAP_MB).
      ...(process.env.EMBEDDED_DB_MAX_HEAP_MB ? { EMBEDDED_DB_MAX_HEAP_MB: process.env.EMBEDDED_DB_MAX_HEAP_MB } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    createInterface({ input: server.stdout }).once('line', (line) =>
      resolve({ server, ...(JSON.parse(line) as { url: string }) }),
    );
  });
}

/** User and system CPU time of a process in µs, from /proc (Linux; clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  return statMicros(`/proc/${pid}/stat`);
}

/** The same for the process's main thread alone (the app's JavaScript; the database has its own thread). */
function mainThreadMicros(pid: number): number {
  return statMicros(`/proc/${pid}/task/${pid}/stat`);
}

function statMicros(file: string): number {
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

interface Sample {
  rate: number;
  p50: number;
  p99: number;
  /** Server CPU time (user + system) per request, µs. */
  cpuPerRequest: number;
  /** Of which its main thread's (the app's; the rest is mostly the embedded database's thread). */
  appPerRequest: number;
}

/**
 * Answers every call of the mixes once, one after the other, before anything is measured: with the cache on, every
 * measured call is then a hit (the read-mostly steady state), instead of first computations (seconds each at
 * `--scale 100` on a busy machine) still running into the next mix's measurement.
 */
async function prime(url: string, selected: Map<string, Mix>): Promise<void> {
  for (const mix of selected.values()) {
    for (const request of mix(0)) {
      const response = await send(url, request);
      if (!response.ok) throw new Error(`${request.body}: ${response.status} ${await response.text()}`);
    }
  }
}

async function measure(url: string, server: ChildProcess, name: string, mix: Mix, seconds: number): Promise<Sample> {
  const cpuBefore = cpuMicros(server.pid!);
  const appBefore = mainThreadMicros(server.pid!);
  let connection = 0;
  const result = await autocannon({
    url,
    requests: mix(0),
    setupClient: (client: { setRequests(requests: BenchRequest[]): void }) => client.setRequests(mix(connection++)),
    connections: Number(values.connections),
    duration: seconds,
    timeout: 120, // seconds: a filter over the x100 catalogue queues behind the other connections' calls
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  const cpuPerRequest = (cpuMicros(server.pid!) - cpuBefore) / result.requests.total;
  const appPerRequest = (mainThreadMicros(server.pid!) - appBefore) / result.requests.total;
  await settle(server);
  const { average: rate } = result.requests;
  return { rate, p50: result.latency.p50, p99: result.latency.p99, cpuPerRequest, appPerRequest };
}

const SETTLE_SAMPLE_MS = 250;
const SETTLE_LIMIT_MS = 120_000;

/**
 * Waits until the server is idle (under a tenth of a core over 250 ms): calls still running when autocannon stops
 * (slow uncached ones at `--scale 100`) would otherwise spend the next mix's CPU and delay its answers.
 */
async function settle(server: ChildProcess): Promise<void> {
  for (let waited = 0; waited < SETTLE_LIMIT_MS; waited += SETTLE_SAMPLE_MS) {
    const before = cpuMicros(server.pid!);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_SAMPLE_MS));
    if (cpuMicros(server.pid!) - before < (SETTLE_SAMPLE_MS * 1000) / 10) return;
  }
}

async function runRounds(url: string, server: ChildProcess, selected: Map<string, Mix>) {
  const names = [...selected.keys()];
  const run = (name: string, seconds: number) => measure(url, server, name, selected.get(name)!, seconds);
  await prime(url, selected);
  for (const name of names) await run(name, Number(values.warmup)); // warm-up: V8 optimizes a call's code over seconds
  const samples = new Map(names.map((name) => [name, [] as Sample[]]));
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) samples.get(name)!.push(await run(name, Number(values.seconds)));
  }
  return samples;
}

function report(samples: Map<string, Sample[]>): void {
  // A window in which no call came back (a stalled server) has no CPU per request: left out, and said.
  const answered = (name: string) => samples.get(name)!.filter((sample) => Number.isFinite(sample.cpuPerRequest));
  const cpuOf = (name: string) => median(answered(name).map((sample) => sample.cpuPerRequest));
  const baseline = withBaseline ? cpuOf(BASELINE) : NaN;
  const trade = [
    ...(values.trade === '0' ? [] : [`, ${values.trade} stock writes/s`]),
    ...(values.checkouts === '0' ? [] : [`, ${values.checkouts} checkouts/s`]),
  ].join('');
  process.stdout.write(`scale ${values.scale}${trade}, ${values.rounds} rounds of ${values.seconds} s, medians\n`);
  for (const [name, list] of samples) {
    const of = (pick: (sample: Sample) => number) => String(Math.round(median(list.map(pick))));
    const figures = [
      `${of((s) => s.rate).padStart(5)} req/s`,
      `p50 ${of((s) => s.p50).padStart(4)} ms`,
      `p99 ${of((s) => s.p99).padStart(4)} ms`,
      `${String(Math.round(cpuOf(name))).padStart(6)} µs CPU/req`,
      `(app thread ${of((s) => s.appPerRequest).padStart(5)} µs)`,
      ...(withBaseline ? [`${(cpuOf(name) / baseline).toFixed(1).padStart(5)}x baseline`] : []),
      ...(answered(name).length < list.length ? [`(${list.length - answered(name).length} windows: no answer)`] : []),
    ];
    process.stdout.write(`${name.padEnd(30)} ${figures.join('   ')}\n`);
  }
}

async function main(): Promise<void> {
  const kept = values['data-dir'];
  const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'ccb-bench-'));
  const { server, url } = await startServer(dataDir, kept === undefined);
  const tokens = await demoTokens(url, demo);
  const offers = stockedOffers(demo);
  const trading = new Trading(url, tokens, offers);
  try {
    trading.start({ stockWrites: Number(values.trade), checkouts: Number(values.checkouts) });
    const samples = await runRounds(url, server, mixes(tokens, offers));
    await trading.stop();
    report(samples);
    reportTrading(trading);
  } finally {
    await trading.stop();
    await stopChild(server);
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
  }
}

function reportTrading({ counts, failures }: Trading): void {
  if (values.trade === '0' && values.checkouts === '0') return;
  const { stockWrites, checkouts, refused, skipped } = counts;
  const made = `${stockWrites} stock writes, ${checkouts} checkouts`;
  process.stdout.write(`trading: ${made}, ${refused} refused (409), ${skipped} checkouts skipped (buyer busy)\n`);
  if (failures.length > 0) throw new Error(`trading calls failed (${failures.length}): ${failures[0]}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

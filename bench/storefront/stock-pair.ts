import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { stopChild } from '../child-process';
import { buildDemoCatalogue } from '../../src/seed/demo-data';
import { median } from '../median';
import { BenchRequest, beanRequest, demoTokens, stockAdjustment, stockedOffers } from './trading';

/**
 * `ROOTS=/work/wt/base,/work/wt/mine [ROUNDS=6 SECONDS_EACH=3 WARMUP_SECONDS=2] node test/support/run-ts.js bench/storefront/stock-pair.ts`
 * The stock adjustment mix of `run.ts` (the seller's stock call, one unit on and off each connection's offers) and
 * the cheap call, against two builds (worktrees) at once: each runs its bench server (`server.ts`, scale 1, in
 * memory), and the windows alternate between them within every round (the first build first in even rounds, last in
 * odd ones), so both see the same load of a shared machine. Reports per build the medians of server CPU per call
 * (/proc, all threads) and of the adjustment's ratio to the cheap call per round, then the second build's
 * adjustment CPU as a fraction of the first's in each round and its median. The adjustment's CPU is also split by
 * thread: the app's (main), the embedded database's (the busiest of the threads started after the process: the
 * server's worker) and the rest (V8's helper threads: garbage collection and optimizing compilation).
 */
const autocannon = require('autocannon') as (o: Record<string, unknown>) => Promise<{ requests: { total: number } }>;
const ROOTS = (process.env.ROOTS ?? '').split(',');
const SECONDS = Number(process.env.SECONDS_EACH ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
/** Seconds of each mix before the rounds: V8 still optimizes the adjustment's code for tens of seconds (README). */
const WARMUP = Number(process.env.WARMUP_SECONDS ?? 2);
const CONNECTIONS = 10;

/** CPU time in µs of each thread of the process, by thread id, with its start time (clock ticks after boot). */
function threadCpu(pid: number): Map<string, { cpu: number; start: number }> {
  return new Map(
    readdirSync(`/proc/${pid}/task`).map((tid) => {
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      return [tid, { cpu: (Number(f[11]) + Number(f[12])) * 10_000, start: Number(f[19]) }];
    }),
  );
}

interface Split {
  total: number;
  main: number;
  database: number;
  helpers: number;
}

/** CPU per call between two readings of `threadCpu`, in all and by thread (see the header). */
function splitOf(
  pid: number,
  before: ReturnType<typeof threadCpu>,
  after: ReturnType<typeof threadCpu>,
  calls: number,
) {
  const used = [...after].map(([tid, { cpu, start }]) => ({ tid, start, cpu: cpu - (before.get(tid)?.cpu ?? 0) }));
  const main = after.get(String(pid))!;
  const later = used.filter((t) => t.start > main.start).sort((a, b) => b.cpu - a.cpu);
  const database = later[0];
  const sum = (threads: typeof used) => threads.reduce((total, t) => total + t.cpu, 0) / calls;
  const split: Split = {
    total: sum(used),
    main: sum(used.filter((t) => t.tid === String(pid))),
    database: sum(used.filter((t) => t === database)),
    helpers: 0,
  };
  split.helpers = split.total - split.main - split.database;
  return split;
}

async function start(root: string) {
  const server: ChildProcess = spawn(process.execPath, ['test/support/run-ts.js', 'bench/storefront/server.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: '/tmp', EMBEDDED_DB_IN_MEMORY: 'true', SEED_SCALE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve) =>
    createInterface({ input: server.stdout! }).on('line', (l) => {
      if (l.startsWith('{"url"')) resolve((JSON.parse(l) as { url: string }).url);
    }),
  );
  const demo = buildDemoCatalogue(1);
  const tokens = await demoTokens(url, demo);
  const seen = new Set<string>();
  const one = stockedOffers(demo).filter((o) => !seen.has(o.product) && seen.add(o.product));
  const stock = (c: number): BenchRequest[] =>
    Array.from({ length: 5 }, (_, i) => one[(c + i * CONNECTIONS) % one.length]).flatMap((o) =>
      [1, -1].map((d) => stockAdjustment(tokens.get(o.seller)!, o, d)),
    );
  const cheap = (): BenchRequest[] => [beanRequest('geoLocationServiceImpl', 'getCountryByCode', ['NL'])];
  async function window(mix: (c: number) => BenchRequest[], seconds: number) {
    const before = threadCpu(server.pid!);
    let c = 0;
    const r = await autocannon({
      url,
      requests: mix(0),
      setupClient: (client: { setRequests(r: BenchRequest[]): void }) => client.setRequests(mix(c++)),
      connections: CONNECTIONS,
      duration: seconds,
    });
    const per = splitOf(server.pid!, before, threadCpu(server.pid!), r.requests.total);
    await new Promise((res) => setTimeout(res, 300));
    return per;
  }
  return { server, root, window, cheap, stock };
}

async function main() {
  const servers = [];
  for (const root of ROOTS) servers.push(await start(root));
  for (const s of servers) {
    await s.window(s.stock, WARMUP);
    await s.window(s.cheap, WARMUP);
  }
  const rows = servers.map(() => [] as { cheap: number; stock: number; split: Split }[]);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? servers.map((_, i) => i) : servers.map((_, i) => i).reverse();
    for (const i of order) {
      const s = servers[i];
      const cheap = (await s.window(s.cheap, SECONDS)).total;
      const split = await s.window(s.stock, SECONDS);
      rows[i].push({ cheap, stock: split.total, split });
    }
  }
  servers.forEach((s, i) => {
    const r = rows[i];
    console.log(
      s.root.padEnd(22),
      `cheap ${Math.round(median(r.map((x) => x.cheap)))} µs  stock ${Math.round(median(r.map((x) => x.stock)))} µs`,
      ` ratio median ${median(r.map((x) => x.stock / x.cheap)).toFixed(1)}  per round ${r.map((x) => (x.stock / x.cheap).toFixed(1)).join(' ')}`,
      ` stock by thread (medians): main ${Math.round(median(r.map((x) => x.split.main)))} µs, database ${Math.round(median(r.map((x) => x.split.database)))} µs, V8 helpers ${Math.round(median(r.map((x) => x.split.helpers)))} µs`,
    );
  });
  const quotients = rows[0].map((x, k) => rows[1][k].stock / x.stock);
  console.log(
    'stock CPU second/first per round',
    quotients.map((q) => q.toFixed(2)).join(' '),
    ' median',
    median(quotients).toFixed(2),
  );
  for (const s of servers) await stopChild(s.server);
}
void main();

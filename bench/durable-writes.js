'use strict';
/**
 * Durable insertOne against the disk's raw fsync rate, measured in the same run.
 *   npm run bench:durable-writes [-- --rounds 3 --seconds 3]
 * Each round measures, in one temporary directory:
 *   raw    4 KB pwrite + fdatasync in a loop (into a preallocated 64 MB file, as fio does), ops/s;
 *   1      one driver client, sequential `insertOne` against a durable server (`--dbpath`), ops/s;
 *   16     sixteen driver clients (one connection each), each sequential, ops/s in total;
 * and reports 1 and 16 as ratios to the mean raw rate measured just before and after each (the disk is shared
 * and noisy); in-memory rates (`--memory`) are compared with the raw rates of the same round.
 * The server runs in its own process (`dist/cli.js`), the clients here. `--memory` adds the in-memory rates with
 * 1 and 16 clients: the ceilings without any disk, which no durable figure can pass, and the targets of issue 25
 * (durable / in-memory, per round), with what one client's durable insert costs beyond the in-memory insert and
 * one raw fsync (1/durable - 1/in-memory - 1/raw, µs). `--compare PATH` measures another build's `cli.js` (e.g.
 * the previous commit's package, built elsewhere) right after each durable figure, in the same raw-rate window,
 * and reports this build / that build; with `--memory`, that build's in-memory rates too.
 * Every server is warmed up first (`--warmup N` inserts, default 2000, from 16 clients, not measured): a fresh
 * server runs its first thousands of inserts before V8 has optimised its code, at about twice the CPU per insert,
 * and durable and in-memory runs make different numbers of inserts in the same time, so without it they carry
 * different shares of that start-up cost. The server thread's CPU per one-client insert is printed (user and system time from
 * `/proc/<pid>/task/<tid>/stat`, its sleeps from `…/status`), durable and, with `--memory`, in memory.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createInterface } = require('node:readline');
const { parseArgs } = require('node:util');
const { MongoClient } = require('mongodb');

const CLI = path.join(__dirname, '..', 'packages', 'embedded-mongo', 'dist', 'cli.js');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '3' },
    memory: { type: 'boolean', default: false },
    compare: { type: 'string' },
    warmup: { type: 'string', default: '2000' },
  },
});
const ROUNDS = Number(values.rounds);
const MILLIS = Number(values.seconds) * 1000;
const RAW_FILE_BYTES = 64 * 2 ** 20;
const BLOCK = 4096;
const WARMUP_INSERTS = Number(values.warmup);
const WARMUP_CLIENTS = 16;
/** Clock ticks per second of `/proc/…/stat` times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function rawFsyncRate(dir) {
  const file = path.join(dir, 'raw-fsync');
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, Buffer.alloc(RAW_FILE_BYTES));
    fs.fdatasyncSync(fd);
    const block = Buffer.alloc(BLOCK, 7);
    let ops = 0;
    const start = performance.now();
    while (performance.now() - start < MILLIS) {
      fs.writeSync(fd, block, 0, BLOCK, (ops * BLOCK) % RAW_FILE_BYTES);
      fs.fdatasyncSync(fd);
      ops++;
    }
    return ops / ((performance.now() - start) / 1000);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file);
  }
}

/** Starts a server's `cli.js` on a free port and resolves with its process and URI. */
function startServer(cli, dbPath) {
  const args = [cli, '--port', '0', ...(dbPath ? ['--dbpath', dbPath] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
    createInterface({ input: child.stdout }).once('line', (uri) => resolve({ child, uri }));
  });
}

function stopServer(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/**
 * Per thread of a process (Linux), in ns: on a CPU and runnable but waiting for one (schedstat), user and system
 * time (stat, counted in clock ticks), and its voluntary context switches (status: how often it slept).
 */
function threadTimes(pid) {
  const tasks = `/proc/${pid}/task`;
  if (!fs.existsSync(tasks)) return new Map();
  const times = (tid) => {
    const [cpu, wait] = fs.readFileSync(`${tasks}/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    const stat = fs.readFileSync(`${tasks}/${tid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const [user, system] = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 13)
      .map(ticksToNanos);
    const status = fs.readFileSync(`${tasks}/${tid}/status`, 'utf8');
    const sleeps = Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)[1]);
    return { cpu, wait, user, system, sleeps };
  };
  return new Map(fs.readdirSync(tasks).map((tid) => [tid, times(tid)]));
}

const ticksToNanos = (ticks) => (Number(ticks) * 1e9) / TICKS_PER_SECOND;

/**
 * The server thread's (the one that ran longest) costs per insert: CPU time, run-queue wait, user and system time
 * in µs, and sleeps (a durable insert's journal write sleeps in the kernel; every insert waits for its request).
 */
function serverThreadCost(before, after, inserted) {
  let busiest;
  for (const [tid, times] of after) {
    const previous = before.get(tid) ?? times;
    const delta = Object.fromEntries(Object.keys(times).map((key) => [key, times[key] - previous[key]]));
    if (!busiest || delta.cpu > busiest.cpu) busiest = delta;
  }
  if (!busiest) return {};
  const micros = (nanos) => nanos / 1000 / inserted;
  return {
    cpuMicros: micros(busiest.cpu),
    waitMicros: micros(busiest.wait),
    userMicros: micros(busiest.user),
    systemMicros: micros(busiest.system),
    sleeps: busiest.sleeps / inserted,
  };
}

/** Inserts WARMUP_INSERTS documents from WARMUP_CLIENTS clients, so the server's code is optimised before it counts. */
async function warmUp(uri) {
  const clients = await Promise.all(Array.from({ length: WARMUP_CLIENTS }, () => MongoClient.connect(uri)));
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      const docs = client.db('bench').collection('warmup');
      while (next < WARMUP_INSERTS) await docs.insertOne({ _id: next++, value: 'x'.repeat(100) });
    }),
  );
  await Promise.all(clients.map((client) => client.close()));
}

async function insertRate(uri, clients, pid) {
  await warmUp(uri);
  const connect = () => MongoClient.connect(uri, { maxPoolSize: 1 });
  const connections = await Promise.all(Array.from({ length: clients }, connect));
  const statsBefore = await storageStats(connections[0]);
  const before = threadTimes(pid);
  let inserted = 0;
  let nextId = 0;
  const start = performance.now();
  await Promise.all(
    connections.map(async (client) => {
      const docs = client.db('bench').collection('durable');
      while (performance.now() - start < MILLIS) {
        await docs.insertOne({ _id: nextId++, value: 'x'.repeat(100) });
        inserted++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const thread = serverThreadCost(before, threadTimes(pid), inserted);
  const stats = await storageStats(connections[0]);
  await Promise.all(connections.map((client) => client.close()));
  const commits = stats.commits - statsBefore.commits;
  const writesPerCommit = commits ? (stats.committedWrites - statsBefore.committedWrites) / commits : undefined;
  return { rate: inserted / seconds, writesPerCommit, ...thread };
}

/** The store's commit counters (zero for an in-memory server and for builds without them). */
async function storageStats(client) {
  const status = await client.db('admin').command({ serverStatus: 1 });
  const { commits = 0, committedWrites = 0 } = status.embeddedMongo?.storage ?? {};
  return { commits, committedWrites };
}

async function measureServer(dbPath, clients, cli = CLI) {
  const { child, uri } = await startServer(cli, dbPath);
  try {
    return await insertRate(uri, clients, child.pid);
  } finally {
    await stopServer(child);
  }
}

/** The `--compare` build's measures, when one was given. */
async function measureOther(dbPath, clients) {
  return values.compare ? measureServer(dbPath, clients, values.compare) : {};
}

/** In-memory rates with 1 and 16 clients of a build, and its server thread's costs with 1, when `--memory` was given. */
async function measureMemory(cli) {
  if (!values.memory || !cli) return {};
  const single = await measureServer(undefined, 1, cli);
  return { one: single.rate, sixteen: (await measureServer(undefined, 16, cli)).rate, single };
}

/** How the server thread saw one client's inserts: CPU (user, system), sleeps and run-queue wait per insert. */
const costText = ({ cpuMicros, userMicros, systemMicros, sleeps, waitMicros }) =>
  `${cpuMicros?.toFixed(0)} µs CPU (user ${userMicros?.toFixed(0)}, system ${systemMicros?.toFixed(0)}),` +
  ` ${sleeps?.toFixed(1)} sleeps, ${waitMicros?.toFixed(0)} µs waiting for a core`;

function threadText(single, memorySingle, otherSingle, otherMemorySingle) {
  const lines = [`durable ${costText(single)}`];
  if (values.memory) lines.push(`in memory ${costText(memorySingle)}`);
  if (values.compare) lines.push(`other build durable ${costText(otherSingle)}`);
  if (values.compare && values.memory) lines.push(`other build in memory ${costText(otherMemorySingle)}`);
  return `\n  server thread per insert, 1 client:${lines.map((line) => `\n    ${line}`).join('')}`;
}

/** What one durable insert costs beyond an in-memory insert plus one raw fsync, in µs. */
const beyondFsync = (durable, memory, raw) => 1e6 * (1 / durable - 1 / memory - 1 / raw);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => String(Math.round(x)).padStart(7);

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-writes-'));
  const rows = [];
  try {
    let rawBefore = rawFsyncRate(dir);
    for (let round = 0; round < ROUNDS; round++) {
      const single = await measureServer(path.join(dir, `db-${round}-1`), 1);
      const otherSingle = await measureOther(path.join(dir, `other-${round}-1`), 1);
      const rawBetween = rawFsyncRate(dir);
      const group = await measureServer(path.join(dir, `db-${round}-16`), 16);
      const other = (await measureOther(path.join(dir, `other-${round}-16`), 16)).rate;
      const [one, otherOne] = [single.rate, otherSingle.rate];
      const rawAfter = rawFsyncRate(dir);
      // Each durable figure is compared with the mean raw rate measured just before and just after it.
      const raw1 = (rawBefore + rawBetween) / 2;
      const raw16 = (rawBetween + rawAfter) / 2;
      const sixteen = group.rate;
      const memoryRun = await measureMemory(CLI);
      const otherMemoryRun = await measureMemory(values.compare);
      const { one: memoryOne, sixteen: memory } = memoryRun;
      const { one: otherMemoryOne, sixteen: otherMemory } = otherMemoryRun;
      rows.push({ raw1, one, raw16, sixteen, memoryOne, memory, otherOne, other, otherMemoryOne, otherMemory });
      Object.assign(rows.at(-1), { single, otherSingle });
      Object.assign(rows.at(-1), { memorySingle: memoryRun.single, otherMemorySingle: otherMemoryRun.single });
      const memoryText = values.memory
        ? `  in-memory: 1 client ${fmt(memoryOne)}, 16 clients ${fmt(memory)}` +
          ` (durable/in-memory ${(one / memoryOne).toFixed(2)}x, ${(sixteen / memory).toFixed(2)}x)`
        : '';
      const otherText = values.compare
        ? `  other build: 1 client ${fmt(otherOne)}, 16 clients ${fmt(other)}` +
          (values.memory ? `, in-memory ${fmt(otherMemoryOne)}, ${fmt(otherMemory)}` : '')
        : '';
      console.log(
        `round ${round + 1}: raw ${fmt(rawBefore)}  1 client ${fmt(one)} (${(one / raw1).toFixed(2)}x)` +
          `  raw ${fmt(rawBetween)}  16 clients ${fmt(sixteen)} (${(sixteen / raw16).toFixed(2)}x,` +
          ` ${group.writesPerCommit?.toFixed(1)} writes/commit)  raw ${fmt(rawAfter)}${memoryText}${otherText}` +
          threadText(single, memoryRun.single, otherSingle, otherMemoryRun.single),
      );
      rawBefore = rawAfter;
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(`median of ${ROUNDS} rounds (${values.seconds} s each), ops/s; load ${load}, ${os.cpus().length} CPUs`);
  const summary = (name, rate, raw) => {
    const ratio = median(rows.map((r) => r[rate] / r[raw])).toFixed(2);
    console.log(`${name.padEnd(22)} ${fmt(median(rows.map((r) => r[rate])))}  ${ratio}x raw`);
  };
  summary('raw fsync', 'raw1', 'raw1');
  summary('durable, 1 client', 'one', 'raw1');
  summary('durable, 16 clients', 'sixteen', 'raw16');
  if (values.memory) {
    summary('in-memory, 1 client', 'memoryOne', 'raw1');
    summary('in-memory, 16 clients', 'memory', 'raw16');
  }
  if (values.compare) {
    summary('other build, 1 client', 'otherOne', 'raw1');
    summary('other build, 16 clients', 'other', 'raw16');
    const relative = (rate, other) => median(rows.map((r) => r[rate] / r[other])).toFixed(2);
    const [one, sixteen] = [relative('one', 'otherOne'), relative('sixteen', 'other')];
    console.log(`this build / other build: 1 client ${one}x, 16 clients ${sixteen}x`);
  }
  if (values.memory) reportTargets(rows);
  reportThreadCosts(rows);
}

/** Medians over the rounds of the server thread's costs per one-client insert, durable and in memory. */
function reportThreadCosts(rows) {
  const runs = [['durable', 'single']];
  if (values.memory) runs.push(['in memory', 'memorySingle']);
  if (values.compare) runs.push(['other build durable', 'otherSingle']);
  if (values.compare && values.memory) runs.push(['other build in memory', 'otherMemorySingle']);
  console.log(`server thread per insert, 1 client (medians of ${ROUNDS} rounds):`);
  for (const [name, run] of runs) {
    const costs = rows.map((row) => row[run]);
    const middle = (key) => median(costs.map((cost) => cost[key]));
    const keys = ['cpuMicros', 'userMicros', 'systemMicros', 'sleeps', 'waitMicros'];
    console.log(`  ${name.padEnd(22)} ${costText(Object.fromEntries(keys.map((key) => [key, middle(key)])))}`);
  }
}

/** Issue 25's targets: durable / in-memory of the same build and round (medians), and the cost beyond the fsync. */
function reportTargets(rows) {
  const builds = [['this build', '', 'one', 'sixteen']];
  if (values.compare) builds.push(['other build', 'other', 'otherOne', 'other']);
  for (const [name, prefix, one, sixteen] of builds) {
    const memoryOne = prefix ? 'otherMemoryOne' : 'memoryOne';
    const memory = prefix ? 'otherMemory' : 'memory';
    const ratioOne = median(rows.map((r) => r[one] / r[memoryOne])).toFixed(2);
    const ratioSixteen = median(rows.map((r) => r[sixteen] / r[memory])).toFixed(2);
    const beyond = median(rows.map((r) => beyondFsync(r[one], r[memoryOne], r.raw1))).toFixed(0);
    console.log(
      `${name}: durable / in-memory 1 client ${ratioOne}x (target >= 0.6x), 16 clients ${ratioSixteen}x` +
        ` (target >= 0.85x); 1 client beyond in-memory + raw fsync ${beyond} µs per insert`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

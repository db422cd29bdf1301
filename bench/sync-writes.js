'use strict';
/**
 * What a synchronous journal-sized write costs on this disk, by the way it is written (issue 25).
 *   node bench/sync-writes.js [--rounds 6] [--millis 1000] [--bytes 172] [--dir DIR] [--variants a,b,...] [--pairs N]
 * Each round runs every variant for `--millis` ms, in a rotated order (so none always follows the same one), each in
 * a file of its own under DIR (default: the OS temporary directory, the disk the durable-writes bench uses):
 *   dsync-append         `--bytes` writes through an O_DSYNC descriptor, each growing the file (new size, new blocks)
 *   dsync-prealloc       the same writes packed one after the other into a zero-filled preallocated file, as the
 *                        store's journal writes its records (no size or extent change)
 *   fdatasync-append     write + fdatasync, growing the file
 *   fdatasync-prealloc   write + fdatasync into the preallocated file
 *   raw-4k               bench/durable-writes.js's raw loop: 4 KB pwrite + fdatasync, cycling over a preallocated 64 MB
 *   direct-prealloc      the journal's records as it writes them now: each zero-padded to whole 512-byte sectors, at
 *                        sector boundaries, through an O_DIRECT | O_DSYNC descriptor (no page cache), from one buffer
 *                        at a sector-aligned address (found as the journal finds it, by trying direct reads)
 * (`--variants` runs only those, e.g. one at a time under `perf stat -e block:block_rq_issue` to count the device
 * requests per write) and prints ops/s per round, then per variant the median rate, µs per write and its ratio to
 * raw-4k in the same rounds, and the process's CPU time (user + system) per write, median of the rounds. Then `--pairs` (default 3000, 0 for none) round trips of a `--bytes` message to a child
 * process over TCP (loopback), interleaved one by one with journal writes here (see pairedRoundTrips): what a round
 * trip whose answer waits for a journal write costs beyond a round trip answered at once plus the write itself, i.e.
 * what a durable insert pays for the write beyond the write, without the server's code. The machine is shared:
 * compare figures of one run only.
 */
const { fork } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { values, positionals } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    millis: { type: 'string', default: '1000' },
    bytes: { type: 'string', default: '172' },
    dir: { type: 'string', default: os.tmpdir() },
    variants: { type: 'string' },
    pairs: { type: 'string', default: '3000' },
    serve: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const ROUNDS = Number(values.rounds);
const MILLIS = Number(values.millis);
const RECORD = Buffer.alloc(Number(values.bytes), 7);
const BLOCK = Buffer.alloc(4096, 7);
const PREALLOCATED_BYTES = 16 * 2 ** 20; // the journal's size
const RAW_BYTES = 64 * 2 ** 20; // the raw loop's file

function zeroFilled(file, bytes) {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(2 ** 20);
  for (let at = 0; at < bytes; at += chunk.length) fs.writeSync(fd, chunk, 0, chunk.length, at);
  fs.fdatasyncSync(fd);
  fs.closeSync(fd);
}

/**
 * Writes `buffer` at successive offsets (wrapping at `wrap`, when given) for MILLIS ms; returns ops/s and the
 * process's CPU µs per write.
 */
function timedWrites(fd, buffer, { wrap, sync }) {
  let ops = 0;
  let position = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < MILLIS) {
    if (wrap && position + buffer.length > wrap) position = 0;
    fs.writeSync(fd, buffer, 0, buffer.length, position);
    if (sync) fs.fdatasyncSync(fd);
    position += buffer.length;
    ops++;
  }
  const rate = ops / ((performance.now() - start) / 1000);
  const { user, system } = process.cpuUsage(cpuBefore);
  return { rate, cpu: (user + system) / ops };
}

const SECTOR = 512;

/** The record padded to whole sectors, in memory at a sector-aligned address (a direct read there succeeds). */
function sectorAlignedRecord(fd) {
  const bytes = Math.ceil(RECORD.length / SECTOR) * SECTOR;
  const slab = Buffer.allocUnsafeSlow(bytes + 2 * 4096 + SECTOR).fill(0);
  for (let offset = 0; offset < SECTOR; offset += 8) {
    try {
      fs.readSync(fd, slab, offset, 2 * 4096, 0);
    } catch (error) {
      if (error.code === 'EINVAL') continue;
      throw error;
    }
    RECORD.copy(slab, offset);
    return slab.subarray(offset, offset + bytes);
  }
  throw new Error('no sector-aligned buffer found for O_DIRECT');
}

/** One variant: how its file is prepared, how it is opened, what each write is. */
function variant({ preallocate, dsync, direct, buffer = RECORD }) {
  return (file) => {
    if (preallocate) zeroFilled(file, preallocate);
    const flags =
      fs.constants.O_RDWR |
      fs.constants.O_CREAT |
      (dsync ? fs.constants.O_DSYNC : 0) |
      (direct ? fs.constants.O_DIRECT : 0);
    const fd = fs.openSync(file, flags, 0o644);
    try {
      return timedWrites(fd, direct ? sectorAlignedRecord(fd) : buffer, { wrap: preallocate, sync: !dsync });
    } finally {
      fs.closeSync(fd);
      fs.rmSync(file);
    }
  };
}

/** The child of the round-trip measure: answers each message, first writing it to its journal when it asks so. */
function serveEcho(file) {
  const journal = new JournalFile(file);
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= RECORD.length) {
        const message = pending.subarray(0, RECORD.length);
        pending = pending.subarray(RECORD.length);
        if (message[0] === WRITE_FIRST) journal.write(message);
        socket.write(message);
      }
    });
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
}

/** A zero-filled preallocated file written record after record through an O_DSYNC descriptor, as the journal is. */
class JournalFile {
  position = 0;
  constructor(file) {
    this.fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_DSYNC);
  }
  write(record) {
    if (this.position + record.length > PREALLOCATED_BYTES) this.position = 0;
    fs.writeSync(this.fd, record, 0, record.length, this.position);
    this.position += record.length;
  }
}

const WRITE_FIRST = 1;
const ANSWER_AT_ONCE = 0;

/** A connection to the child: `roundTrip(first)` sends one message and resolves with µs until its answer. */
async function connectToChild(port) {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = 0;
  let answered;
  socket.on('data', (chunk) => {
    received += chunk.length;
    if (received >= RECORD.length) {
      received -= RECORD.length;
      answered();
    }
  });
  const roundTrip = (first) =>
    new Promise((resolve) => {
      const start = performance.now();
      answered = () => resolve((performance.now() - start) * 1000);
      socket.write(Buffer.concat([Buffer.from([first]), RECORD.subarray(1)]));
    });
  return { roundTrip, close: () => socket.destroy() };
}

/**
 * The round-trip measure: `--pairs` times, in a rotating order, (a) a journal write here, (b) a round trip to the
 * child that writes the message to its own journal before answering (a durable insert's shape, without the server),
 * (c) a round trip it answers at once (an in-memory insert's shape). Interleaved one by one, so all three meet the
 * same disk; returns each one's durations in µs.
 */
async function pairedRoundTrips(dir) {
  const [local, remote] = [path.join(dir, 'local'), path.join(dir, 'remote')];
  zeroFilled(local, PREALLOCATED_BYTES);
  zeroFilled(remote, PREALLOCATED_BYTES);
  const child = fork(__filename, ['--serve', remote]);
  const journal = new JournalFile(local);
  const times = { write: [], durable: [], memory: [] };
  try {
    const connection = await connectToChild(await new Promise((resolve) => child.once('message', resolve)));
    const measures = {
      write: async () => {
        const start = performance.now();
        journal.write(RECORD);
        return (performance.now() - start) * 1000;
      },
      durable: () => connection.roundTrip(WRITE_FIRST),
      memory: () => connection.roundTrip(ANSWER_AT_ONCE),
    };
    const names = Object.keys(measures);
    for (let i = 0; i < Number(values.pairs); i++) {
      for (let j = 0; j < names.length; j++) {
        const name = names[(i + j) % names.length];
        times[name].push(await measures[name]());
      }
    }
    connection.close();
  } finally {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
  }
  return times;
}

function reportRoundTrips(times) {
  const mean = (xs) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
  for (const [name, what] of [
    ['write', 'journal write here'],
    ['durable', 'round trip, child writes first'],
    ['memory', 'round trip, child answers at once'],
  ]) {
    console.log(
      `${what.padEnd(34)} median ${median(times[name]).toFixed(0).padStart(6)} µs, mean ${mean(times[name]).toFixed(0).padStart(6)} µs`,
    );
  }
  const beyond = (average) => average(times.durable) - average(times.memory) - average(times.write);
  console.log(
    `the write-first round trip beyond the other + the write: median ${beyond(median).toFixed(0)} µs, ` +
      `mean ${beyond(mean).toFixed(0)} µs (${times.write.length} of each, interleaved)`,
  );
}

const VARIANTS = {
  'dsync-append': variant({ dsync: true }),
  'dsync-prealloc': variant({ dsync: true, preallocate: PREALLOCATED_BYTES }),
  'fdatasync-append': variant({ dsync: false }),
  'fdatasync-prealloc': variant({ dsync: false, preallocate: PREALLOCATED_BYTES }),
  'raw-4k': variant({ dsync: false, preallocate: RAW_BYTES, buffer: BLOCK }),
  'direct-prealloc': variant({ dsync: true, direct: true, preallocate: PREALLOCATED_BYTES }),
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const dir = fs.mkdtempSync(path.join(values.dir, 'sync-writes-'));
  try {
    reportVariants(dir);
    if (Number(values.pairs) > 0) reportRoundTrips(await pairedRoundTrips(dir));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(`load average at the end: ${load}`);
}

function reportVariants(dir) {
  const names = values.variants === undefined ? Object.keys(VARIANTS) : values.variants.split(',').filter(Boolean);
  for (const name of names) if (!VARIANTS[name]) throw new Error(`no variant ${name}`);
  if (names.length === 0) return;
  const rates = Object.fromEntries(names.map((name) => [name, []]));
  const cpus = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const { rate, cpu } = VARIANTS[name](path.join(dir, name));
      rates[name].push(rate);
      cpus[name].push(cpu);
    }
    console.log(`round ${round + 1}: ${names.map((name) => `${name} ${Math.round(rates[name][round])}`).join('  ')}`);
  }
  console.log(`medians of ${ROUNDS} rounds of ${MILLIS} ms, ${RECORD.length}-byte records`);
  for (const name of names) {
    const rate = median(rates[name]);
    const ratios = rates['raw-4k'] && rates[name].map((rate, round) => rate / rates['raw-4k'][round]);
    const ratio = ratios ? `  ${median(ratios).toFixed(2)}x raw-4k` : '';
    const cpu = `  CPU ${median(cpus[name]).toFixed(0).padStart(5)} µs/write`;
    console.log(
      `${name.padEnd(20)} ${String(Math.round(rate)).padStart(7)}/s  ${(1e6 / rate).toFixed(0).padStart(6)} µs${ratio}${cpu}`,
    );
  }
}

if (values.serve) serveEcho(positionals[0]);
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });

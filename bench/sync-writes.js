'use strict';
/**
 * What a synchronous journal-sized write costs on this disk, by the way it is written (issue 25).
 *   node bench/sync-writes.js [--rounds 6] [--millis 1000] [--bytes 172] [--dir DIR] [--variants a,b,...]
 * Each round runs every variant for `--millis` ms, in a rotated order (so none always follows the same one), each in
 * a file of its own under DIR (default: the OS temporary directory, the disk the durable-writes bench uses):
 *   dsync-append         `--bytes` writes through an O_DSYNC descriptor, each growing the file (new size, new blocks)
 *   dsync-prealloc       the same writes packed one after the other into a zero-filled preallocated file, as the
 *                        store's journal writes its records (no size or extent change)
 *   fdatasync-append     write + fdatasync, growing the file
 *   fdatasync-prealloc   write + fdatasync into the preallocated file
 *   raw-4k               bench/durable-writes.js's raw loop: 4 KB pwrite + fdatasync, cycling over a preallocated 64 MB
 *   echo                 round trips of a `--bytes` message to a child process over TCP (loopback), one at a time:
 *                        the shape of one driver client's inserts against an in-memory server, without the server
 *   echo-dsync           the same, the child writing each message as dsync-prealloc does before it answers: the shape
 *                        of a durable insert; 1/echo-dsync - 1/echo - 1/dsync-prealloc (printed, µs) is what the
 *                        round trip pays for the write beyond the write itself (the wake-ups around it)
 * (`--variants` runs only those, e.g. one at a time under `perf stat -e block:block_rq_issue` to count the device
 * requests per write) and prints ops/s per round, then per variant the median rate, µs per write and its ratio to raw-4k in the same
 * rounds. The machine is shared: compare variants of one run only.
 */
const { fork } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    millis: { type: 'string', default: '1000' },
    bytes: { type: 'string', default: '172' },
    dir: { type: 'string', default: os.tmpdir() },
    variants: { type: 'string' },
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

/** Writes `buffer` at successive offsets (wrapping at `wrap`, when given) for MILLIS ms; returns ops/s. */
function timedWrites(fd, buffer, { wrap, sync }) {
  let ops = 0;
  let position = 0;
  const start = performance.now();
  while (performance.now() - start < MILLIS) {
    if (wrap && position + buffer.length > wrap) position = 0;
    fs.writeSync(fd, buffer, 0, buffer.length, position);
    if (sync) fs.fdatasyncSync(fd);
    position += buffer.length;
    ops++;
  }
  return ops / ((performance.now() - start) / 1000);
}

/** One variant: how its file is prepared, how it is opened, what each write is. */
function variant({ preallocate, dsync, buffer = RECORD }) {
  return (file) => {
    if (preallocate) zeroFilled(file, preallocate);
    const flags = fs.constants.O_RDWR | fs.constants.O_CREAT | (dsync ? fs.constants.O_DSYNC : 0);
    const fd = fs.openSync(file, flags, 0o644);
    try {
      return timedWrites(fd, buffer, { wrap: preallocate, sync: !dsync });
    } finally {
      fs.closeSync(fd);
      fs.rmSync(file);
    }
  };
}

/** The child's side of the echo variants: answers each message, after writing it to `file` when given. */
function serveEcho(file) {
  const fd = file ? fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_DSYNC) : undefined;
  let position = 0;
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= RECORD.length) {
        const message = pending.subarray(0, RECORD.length);
        pending = pending.subarray(RECORD.length);
        if (fd !== undefined) {
          if (position + RECORD.length > PREALLOCATED_BYTES) position = 0;
          fs.writeSync(fd, message, 0, message.length, position);
          position += message.length;
        }
        socket.write(message);
      }
    });
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
}

/** Sends one message at a time to the child and waits for its answer, for MILLIS ms; returns round trips/s. */
async function roundTrips(port) {
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
  let ops = 0;
  const start = performance.now();
  while (performance.now() - start < MILLIS) {
    await new Promise((resolve) => {
      answered = resolve;
      socket.write(RECORD);
    });
    ops++;
  }
  const rate = ops / ((performance.now() - start) / 1000);
  socket.destroy();
  return rate;
}

function echoVariant({ dsync }) {
  return async (file) => {
    if (dsync) zeroFilled(file, PREALLOCATED_BYTES);
    const child = fork(__filename, ['--serve', ...(dsync ? [file] : [])]);
    try {
      const port = await new Promise((resolve) => child.once('message', resolve));
      return await roundTrips(port);
    } finally {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(file, { force: true });
    }
  };
}

const VARIANTS = {
  'dsync-append': variant({ dsync: true }),
  'dsync-prealloc': variant({ dsync: true, preallocate: PREALLOCATED_BYTES }),
  'fdatasync-append': variant({ dsync: false }),
  'fdatasync-prealloc': variant({ dsync: false, preallocate: PREALLOCATED_BYTES }),
  'raw-4k': variant({ dsync: false, preallocate: RAW_BYTES, buffer: BLOCK }),
  echo: echoVariant({ dsync: false }),
  'echo-dsync': echoVariant({ dsync: true }),
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const dir = fs.mkdtempSync(path.join(values.dir, 'sync-writes-'));
  const names = values.variants?.split(',') ?? Object.keys(VARIANTS);
  for (const name of names) if (!VARIANTS[name]) throw new Error(`no variant ${name}`);
  const rates = Object.fromEntries(names.map((name) => [name, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) rates[name].push(await VARIANTS[name](path.join(dir, name)));
      console.log(`round ${round + 1}: ${names.map((name) => `${name} ${Math.round(rates[name][round])}`).join('  ')}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(`medians of ${ROUNDS} rounds of ${MILLIS} ms, ${RECORD.length}-byte records; load ${load}`);
  for (const name of names) {
    const rate = median(rates[name]);
    const ratio = rates['raw-4k'] ? median(rates[name].map((rate, round) => rate / rates['raw-4k'][round])) : NaN;
    console.log(
      `${name.padEnd(20)} ${String(Math.round(rate)).padStart(7)}/s  ${(1e6 / rate).toFixed(0).padStart(6)} µs  ${ratio.toFixed(2)}x raw-4k`,
    );
  }
  if (!rates.echo || !rates['echo-dsync'] || !rates['dsync-prealloc']) return;
  const beyond = rates.echo.map(
    (echo, round) => 1e6 / rates['echo-dsync'][round] - 1e6 / echo - 1e6 / rates['dsync-prealloc'][round],
  );
  console.log(
    `echo-dsync beyond echo + dsync-prealloc: ${median(beyond).toFixed(0)} µs per round trip (median of rounds)`,
  );
}

if (values.serve) serveEcho(process.argv[3]);
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });

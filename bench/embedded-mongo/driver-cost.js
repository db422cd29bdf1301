'use strict';
/**
 * The app's side of a database round trip: what the choices around the driver change in the CPU of one command.
 *   node bench/embedded-mongo/driver-cost.js [--seconds 0.2] [--rounds 31] [--only REGEX] [--variants REGEX]
 * Run `npm run build -w @ccb/embedded-mongo` first. One client awaiting each reply, over the embedded server's Unix
 * domain socket (in memory, on a worker thread of this process), 2,000 documents of 1 KB (texts, a nested price, 8
 * attribute pairs), commands:
 *   findOne by _id          `findOne({_id})`, as the storefront's product detail reads its entry;
 *   find by _id, limit 1    `find({_id}).limit(1).toArray()`;
 *   find 20 by index        `find({category}).sort({rank: 1}).limit(20).toArray()` through {category: 1, rank: 1}.
 * Variants (all but one run inside an active AsyncLocalStorage, as the app's requests do: its RequestContext):
 *   mongoose collection()   a mongoose connection's `connection.collection(name)`, as the app reads: the reference;
 *   driver db.collection()  the same connection's native collection (`connection.db.collection(name)`);
 *   no AsyncLocalStorage    the reference outside any AsyncLocalStorage (Node 20 then runs no promise hooks);
 *   utf8 validation off     a connection with `enableUtf8Validation: false`;
 *   server selection 0      a connection with `serverSelectionTimeoutMS: 0` (no timer per server selection);
 *   mongoose again          the reference again: the spread between two identical variants.
 * And the floor, over the stub's Unix socket (stub-server.js, an empty `find` reply), its hello with and without
 * `logicalSessionTimeoutMinutes`: without it the driver sends no `lsid` (no server session from its pool).
 * Variants alternate within each round, in a new random order each round (a job's garbage is collected during the
 * next one: in a fixed order the same job would always pay for it); figures are medians of the rounds, the
 * ratios medians of each round's ratio to the reference (to the stub with sessions for the stub). CPU time per
 * command is read from /proc (schedstat) for this (the client's) thread and the server's threads.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { AsyncLocalStorage } = require('node:async_hooks');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const mongoose = require('mongoose');
const { EmbeddedMongoServer } = require('../../packages/embedded-mongo/dist');
const { cpuNanos, median, startStub, withNewThreads } = require('./thread-cpu');

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '0.2' },
    rounds: { type: 'string', default: '31' },
    only: { type: 'string' },
    variants: { type: 'string' },
  },
});
const DOCS = 2_000;
const CATEGORIES = 100;
const REFERENCE = 'mongoose collection()';
const STUB_REFERENCE = 'stub, sessions';
const random = (n) => Math.floor(Math.random() * n);
/** A fresh random order for each round: no job always runs after the same one (it would inherit its garbage). */
function shuffled(items) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
const requestContext = new AsyncLocalStorage();

async function startStubServer(socketDir, sessions) {
  const { socketUri, stop } = await startStub(path.join(socketDir, `stub-${sessions}.sock`), { sessions });
  return { uri: `${socketUri}/bench`, stop };
}

async function startEmbedded() {
  const server = await EmbeddedMongoServer.start({ port: 0, unixSocket: true });
  return { uri: `${server.socketUri}/bench`, stop: () => server.stop() };
}

async function seed(uri) {
  const connection = await mongoose.createConnection(uri).asPromise();
  const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt. ';
  const products = Array.from({ length: DOCS }, (_, i) => ({
    _id: i,
    category: i % CATEGORIES,
    rank: i,
    name: `product ${i}`,
    description: text.repeat(8),
    price: { amount: 1 + (i % 97), currency: 'EUR' },
    attributes: Array.from({ length: 8 }, (_, k) => ({ key: `attribute ${k}`, value: `value ${(i + k) % 13}` })),
  }));
  await connection.collection('products').insertMany(products, { ordered: false });
  await connection.collection('products').createIndex({ category: 1, rank: 1 });
  await connection.close();
}

/** Each command checks its answer, so that a server answering wrongly fails the bench instead of looking fast. */
const COMMANDS = {
  'findOne by _id': async (products) => must(await products.findOne({ _id: random(DOCS) })),
  'find by _id, limit 1': async (products) => {
    const found = await products
      .find({ _id: random(DOCS) })
      .limit(1)
      .toArray();
    if (found.length !== 1) throw new Error(`expected 1 document, got ${found.length}`);
  },
  'find 20 by index': async (products) => {
    const page = await products
      .find({ category: random(CATEGORIES) })
      .sort({ rank: 1 })
      .limit(20)
      .toArray();
    if (page.length !== 20) throw new Error(`expected 20 documents, got ${page.length}`);
  },
};
/** The stub answers every `find` with an empty cursor. */
const STUB_FIND = async (products) => products.findOne({ _id: random(DOCS) });

function must(document) {
  if (!document) throw new Error('no document');
}

/** Runs `command` in a loop for `seconds`; returns µs of CPU per command: the server's threads, this thread. */
async function measure(variant, command, seconds) {
  const client = [String(process.pid)];
  const [serverBefore, clientBefore] = [cpuNanos(variant.server.threads), cpuNanos(client)];
  const end = performance.now() + seconds * 1000;
  let operations = 0;
  while (performance.now() < end) {
    await command(variant.collection);
    operations++;
  }
  return {
    server: (cpuNanos(variant.server.threads) - serverBefore) / 1000 / operations,
    client: (cpuNanos(client) - clientBefore) / 1000 / operations,
  };
}

/** Inside the AsyncLocalStorage unless the variant runs without; afterwards no storage is left enabled. */
async function measureInContext(variant, command, seconds) {
  if (variant.withoutContext) return measure(variant, command, seconds);
  const result = await requestContext.run({ requestId: 'bench' }, () => measure(variant, command, seconds));
  requestContext.disable();
  return result;
}

async function connect(server, options = {}) {
  const connection = await mongoose.createConnection(server.uri, options).asPromise();
  return { connection, collection: connection.collection('products'), server };
}

async function variantsOn(embedded, stubs) {
  const reference = await connect(embedded);
  return {
    [REFERENCE]: reference,
    'driver db.collection()': { ...reference, collection: reference.connection.db.collection('products') },
    'no AsyncLocalStorage': { ...reference, withoutContext: true },
    'utf8 validation off': await connect(embedded, { enableUtf8Validation: false }),
    'server selection 0': await connect(embedded, { serverSelectionTimeoutMS: 0 }),
    'mongoose again': reference,
    [STUB_REFERENCE]: { ...(await connect(stubs.sessions)), stub: true },
    'stub, no sessions': { ...(await connect(stubs.none)), stub: true },
  };
}

async function main() {
  const socketDir = mkdtempSync(path.join(tmpdir(), 'driver-cost-'));
  const embedded = await withNewThreads(startEmbedded);
  const stubs = {
    sessions: await withNewThreads(() => startStubServer(socketDir, true)),
    none: await withNewThreads(() => startStubServer(socketDir, false)),
  };
  await seed(embedded.uri);
  const variants = await variantsOn(embedded, stubs);
  const only = new RegExp(values.only ?? '');
  const kept = new RegExp(values.variants ?? '');
  const measured = Object.entries(variants).filter(
    ([name]) => [REFERENCE, STUB_REFERENCE].includes(name) || kept.test(name),
  );
  const jobs = measured.flatMap(([name, variant]) =>
    variant.stub
      ? [{ name, variant, command: 'find (empty reply)', run: STUB_FIND }]
      : Object.entries(COMMANDS)
          .filter(([command]) => only.test(command))
          .map(([command, run]) => ({ name, variant, command, run })),
  );
  for (const job of jobs) await measureInContext(job.variant, job.run, 0.3); // warm-up
  const results = new Map(jobs.map((job) => [job, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const job of shuffled(jobs)) {
      results.get(job).push(await measureInContext(job.variant, job.run, Number(values.seconds)));
    }
  }
  report(jobs, results);
  for (const variant of new Set(Object.values(variants).map((v) => v.connection))) await variant.close();
  for (const server of [embedded, stubs.sessions, stubs.none]) await server.stop();
  rmSync(socketDir, { recursive: true, force: true });
}

/** Medians of the rounds; ratios are medians of each round's ratio to the reference's same command. */
function report(jobs, results) {
  console.log(`medians of ${values.rounds} rounds of ${values.seconds} s, µs of CPU per command;`);
  console.log(`ratios: ÷ "${REFERENCE}" (the stub: ÷ "${STUB_REFERENCE}") in the same round`);
  console.log(`${'command'.padEnd(22)}${'variant'.padEnd(24)}  client  server   client ratio  both ratio`);
  const byCommand = [...jobs].sort(
    (a, b) => jobs.findIndex((job) => job.command === a.command) - jobs.findIndex((job) => job.command === b.command),
  );
  for (const job of byCommand) {
    const rounds = results.get(job);
    const reference = jobs.find(
      (other) => other.command === job.command && other.name === (job.variant.stub ? STUB_REFERENCE : REFERENCE),
    );
    const theirs = results.get(reference);
    const ratio = (of) => median(rounds.map((round, index) => of(round) / of(theirs[index]))).toFixed(3);
    const [client, server] = ['client', 'server'].map((side) => median(rounds.map((round) => round[side])).toFixed(0));
    console.log(
      `${job.command.padEnd(22)}${job.name.padEnd(24)}${client.padStart(8)}${server.padStart(8)}` +
        `${ratio((round) => round.client).padStart(15)}${ratio((round) => round.client + round.server).padStart(12)}`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

'use strict';
/**
 * The fixed cost of one command: what a small read or write costs through the official driver, against the floor of
 * a round trip to a stub server that does nothing (stub-server.js), in the same run.
 *   node bench/embedded-mongo/command-cost.js [--seconds 0.5] [--rounds 15] [--compare DIST] [--only REGEX]
 * Run `npm run build -w @ccb/embedded-mongo` first. Commands, one client awaiting each reply:
 *   find by _id        findOne({_id}) on 10 000 documents;
 *   find 20 by index   find({category}).sort({rank: 1}).limit(20) through the index {category: 1, rank: 1};
 *   find 20 projected  the same, projecting top-level fields (name, price, rank) as the storefront's listings do;
 *   findOneAndUpdate   $inc by _id, returning the new document;
 *   aggregate $lookup  $match by _id, then $lookup of its 3 offers through an index on offers.productId;
 *   update by _id+rank updateOne({_id, rank}, $inc): an optimistic-concurrency filter (`_id` and a version);
 *   find 5 by _id $in  find({_id: {$in: [5 ids]}}), as the storefront index reads a product's entries.
 * Servers (in memory, each on a worker thread of this process): the stub over TCP and over a Unix domain socket
 * (its find answers an empty cursor: the floor, i.e. the socket round trip, the driver and BSON of the command), this
 * build over TCP and over a Unix domain socket, and with `--compare DIST` another build's package (`dist/` of
 * @ccb/embedded-mongo, e.g. main's in a second worktree) over TCP, as the app used it. Servers alternate within
 * each round, each round starting at another one; figures are medians of the rounds. Each figure is CPU time per
 * command from /proc (schedstat, ns) of the server's threads and of this (the client's) thread, steadier than ops/s
 * on a shared machine; the ratio is server + client CPU per command ÷ the stub's find over TCP in the same round. `node --cpu-prof --cpu-prof-dir DIR` of it writes one
 * profile per thread (the servers' workers end cleanly); `--only` keeps the rows whose "server, transport|command"
 * matches (the stub's floor is always measured), e.g. `--only 'this build, unix\|find by'`.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { MongoClient } = require('mongodb');
const { cpuNanos, median, startStub, withNewThreads } = require('./thread-cpu');

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '0.5' },
    rounds: { type: 'string', default: '15' },
    compare: { type: 'string' },
    only: { type: 'string' },
  },
});
const DOCS = 10_000;
const CATEGORIES = 100;
const THIS_BUILD = path.join(__dirname, '..', '..', 'packages', 'embedded-mongo', 'dist');
const random = (n) => Math.floor(Math.random() * n);

/** `unixSocket` is this build's option; an older build ignores it (and has no `socketUri`). */
async function startEmbedded(dist) {
  const { EmbeddedMongoServer } = require(dist);
  const server = await EmbeddedMongoServer.start({ port: 0, unixSocket: true });
  return { uris: { tcp: server.uri, unix: server.socketUri }, stop: () => server.stop() };
}

async function startStubServer(socketDir) {
  const { port, socketUri: unix, stop } = await startStub(path.join(socketDir, 'stub.sock'));
  return { uris: { tcp: `mongodb://127.0.0.1:${port}`, unix }, stop };
}

async function seed(uri) {
  const client = await MongoClient.connect(uri);
  const db = client.db('bench');
  const products = Array.from({ length: DOCS }, (_, i) => ({
    _id: i,
    category: i % CATEGORIES,
    rank: i,
    name: `product ${i}`,
    price: 1 + (i % 97),
    stock: 10,
  }));
  await db.collection('products').insertMany(products, { ordered: false });
  await db.collection('products').createIndex({ category: 1, rank: 1 });
  const offers = products.flatMap((product) =>
    [0, 1, 2].map((n) => ({ productId: product._id, seller: `seller ${n}`, price: product.price + n })),
  );
  await db.collection('offers').insertMany(offers, { ordered: false });
  await db.collection('offers').createIndex({ productId: 1 });
  await client.close();
}

/** Each command returns something, so a server that answers wrongly fails the bench instead of looking fast. */
const COMMANDS = {
  'find by _id': async (db) => must(await db.collection('products').findOne({ _id: random(DOCS) })),
  'find 20 by index': async (db) => {
    const page = await db
      .collection('products')
      .find({ category: random(CATEGORIES) })
      .sort({ rank: 1 })
      .limit(20)
      .toArray();
    if (page.length !== 20) throw new Error(`expected 20 documents, got ${page.length}`);
  },
  'find 20 projected': async (db) => {
    const page = await db
      .collection('products')
      .find({ category: random(CATEGORIES) }, { projection: { name: 1, price: 1, rank: 1 } })
      .sort({ rank: 1 })
      .limit(20)
      .toArray();
    if (page.length !== 20 || page[0].stock !== undefined) throw new Error('expected 20 projected documents');
  },
  findOneAndUpdate: async (db) =>
    must(
      await db
        .collection('products')
        .findOneAndUpdate({ _id: random(DOCS) }, { $inc: { stock: 1 } }, { returnDocument: 'after' }),
    ),
  'aggregate $lookup': async (db) => {
    const pipeline = [
      { $match: { _id: random(DOCS) } },
      { $lookup: { from: 'offers', localField: '_id', foreignField: 'productId', as: 'offers' } },
    ];
    const [product] = await db.collection('products').aggregate(pipeline).toArray();
    if (product?.offers.length !== 3) throw new Error('expected a product with 3 offers');
  },
  'update by _id+rank': async (db) => {
    const id = random(DOCS);
    const result = await db.collection('products').updateOne({ _id: id, rank: id }, { $inc: { stock: 1 } });
    if (result.modifiedCount !== 1) throw new Error('expected one document updated');
  },
  'find 5 by _id $in': async (db) => {
    const first = random(DOCS - 5);
    const ids = [first + 4, first, first + 2, first + 1, first + 3];
    const found = await db
      .collection('products')
      .find({ _id: { $in: ids } })
      .toArray();
    if (found.length !== 5) throw new Error(`expected 5 documents, got ${found.length}`);
  },
};

function must(document) {
  if (!document) throw new Error('no document');
}

/** The stub answers `find` with an empty cursor: the floor of a round trip. */
const STUB_FIND = async (db) => db.collection('products').findOne({ _id: random(DOCS) });

/** Runs `command` in a loop for `seconds`; returns µs per command: wall, server CPU, client CPU. */
async function measure(db, serverThreads, command, seconds) {
  const clientThread = [String(process.pid)];
  const [serverBefore, clientBefore] = [cpuNanos(serverThreads), cpuNanos(clientThread)];
  const start = performance.now();
  const end = start + seconds * 1000;
  let operations = 0;
  while (performance.now() < end) {
    await command(db);
    operations++;
  }
  return {
    wall: ((performance.now() - start) * 1000) / operations,
    server: (cpuNanos(serverThreads) - serverBefore) / 1000 / operations,
    client: (cpuNanos(clientThread) - clientBefore) / 1000 / operations,
  };
}

async function main() {
  const socketDir = mkdtempSync(path.join(tmpdir(), 'command-cost-'));
  const servers = {
    stub: await withNewThreads(() => startStubServer(socketDir)),
    'this build': await withNewThreads(() => startEmbedded(THIS_BUILD)),
  };
  if (values.compare) servers.compared = await withNewThreads(() => startEmbedded(path.resolve(values.compare)));
  const targets = [];
  for (const [name, server] of Object.entries(servers)) {
    if (name !== 'stub') await seed(server.uris.tcp);
    for (const transport of ['tcp', 'unix']) {
      if (!server.uris[transport]) continue;
      const client = await MongoClient.connect(server.uris[transport], { maxPoolSize: 1 });
      targets.push({ label: `${name}, ${transport}`, stub: name === 'stub', server, client });
    }
  }
  const results = new Map();
  const only = new RegExp(values.only ?? '');
  const jobs = targets
    .flatMap((target) =>
      target.stub
        ? [{ target, name: 'find (empty reply)', command: STUB_FIND }]
        : Object.entries(COMMANDS).map(([name, command]) => ({ target, name, command })),
    )
    .filter((job) => job.target.label === 'stub, tcp' || only.test(`${job.target.label}|${job.name}`));
  for (const job of jobs) await measure(job.target.client.db('bench'), [], job.command, 0.3); // warm-up
  for (let round = 0; round < Number(values.rounds); round++) {
    // Each round starts at another job, so that no job always runs at the same moment of a round.
    const order = jobs.map((_, index) => jobs[(index + round) % jobs.length]);
    const measured = new Map();
    for (const job of order) {
      const db = job.target.client.db('bench');
      measured.set(job, await measure(db, job.target.server.threads, job.command, Number(values.seconds)));
    }
    const floor = cpu(measured.get(jobs[0]));
    for (const job of jobs) {
      const key = `${job.target.label}|${job.name}`;
      const result = { ...measured.get(job), ratio: cpu(measured.get(job)) / floor };
      results.set(key, [...(results.get(key) ?? []), result]);
    }
  }
  report(results);
  for (const target of targets) await target.client.close();
  for (const server of Object.values(servers)) await server.stop();
  rmSync(socketDir, { recursive: true, force: true });
}

const cpu = (result) => result.server + result.client;

/** Medians of the rounds; the ratio is the median of each round's ratio to that round's stub find over TCP. */
function report(results) {
  console.log(`medians of ${values.rounds} rounds of ${values.seconds} s, µs per command;`);
  console.log("ratio: server + client CPU ÷ the stub's find over TCP in the same round");
  console.log(`${'server'.padEnd(20)} ${'command'.padEnd(20)} wall   server CPU  client CPU  ratio`);
  const rows = new Map();
  for (const [key, rounds] of results) {
    const [server, command] = key.split('|');
    const of = (field) => median(rounds.map((round) => round[field]));
    const cells = [of('wall'), of('server'), of('client')].map((n) => n.toFixed(0).padStart(8));
    console.log(
      `${server.padEnd(20)} ${command.padEnd(20)}${cells.join('    ')}${`${of('ratio').toFixed(2)}x`.padStart(8)}`,
    );
    rows.set(key, rounds);
  }
  if (!values.compare) return;
  console.log('this build ÷ the compared build (CPU, median of the per-round ratios):');
  console.log(`  ${'command'.padEnd(20)} both over TCP   this build over the Unix socket, the other over TCP`);
  for (const command of Object.keys(COMMANDS)) {
    const theirs = rows.get(`compared, tcp|${command}`);
    const against = (ours) => median(ours.map((round, index) => round.ratio / theirs[index].ratio)).toFixed(2);
    const [tcp, unix] = ['tcp', 'unix'].map((transport) => rows.get(`this build, ${transport}|${command}`));
    if (!theirs || !tcp || !unix) continue;
    console.log(`  ${command.padEnd(20)} ${`${against(tcp)}x`.padStart(12)}   ${`${against(unix)}x`.padStart(12)}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

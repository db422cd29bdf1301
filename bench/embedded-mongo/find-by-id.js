'use strict';
/**
 * `find` by `_id` through the official driver: the embedded server against a stub that answers every command
 * `ok: 1` (stub-server.js), same driver, same concurrency, same run.
 *   node bench/embedded-mongo/find-by-id.js [--seconds 2] [--rounds 5] [--concurrency 1,8] [--docs 10000]
 * Run `npm run build -w @ccb/embedded-mongo` first. Both servers run on a worker thread of this process (the
 * embedded one as it always does, the stub in a worker of its own), so the client's event loop is the same for
 * both. Servers alternate within each round; the figure is the median ops/s of the rounds. On Linux it also
 * reports each server's CPU time per operation (its threads' utime + stime from /proc, steadier than ops/s on
 * a shared machine) and the client thread's.
 */
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { Worker } = require('node:worker_threads');
const { MongoClient } = require('mongodb');
const { EmbeddedMongoServer } = require('../../packages/embedded-mongo/dist');

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '1,8' },
    docs: { type: 'string', default: '10000' },
  },
});
const DOCS = Number(values.docs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const threads = () => (existsSync('/proc/self/task') ? readdirSync('/proc/self/task') : []);
/** CPU time (ms) of threads of this process, from /proc (clock ticks of 10 ms). */
function cpuMs(threadIds) {
  return threadIds.reduce((sum, id) => {
    const fields = readFileSync(`/proc/self/task/${id}/stat`, 'utf8').split(') ')[1].split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) * 10;
  }, 0);
}

/** Runs `start` and returns `{uri, stop, threads}`: the server and the threads it added to this process. */
async function withNewThreads(start) {
  const before = new Set(threads());
  const server = await start();
  await new Promise((resolve) => setTimeout(resolve, 100)); // a worker's helper threads start lazily
  return { uri: server.uri, stop: () => server.stop(), threads: threads().filter((id) => !before.has(id)) };
}

async function startStub() {
  const worker = new Worker(path.join(__dirname, 'stub-server.js'));
  const port = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    uri: `mongodb://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('stop');
      await exited;
    },
  };
}

async function seed(uri) {
  const client = await MongoClient.connect(uri);
  const docs = client.db('bench').collection('docs');
  for (let start = 0; start < DOCS; start += 5000) {
    const size = Math.min(5000, DOCS - start);
    const batch = Array.from({ length: size }, (_, i) => ({ _id: start + i, value: start + i, text: 'lorem ipsum' }));
    await docs.insertMany(batch, { ordered: false });
  }
  await client.close();
}

/**
 * findOne by a random `_id` from `concurrency` loops for `seconds`; returns operations per second and the CPU
 * µs per operation of the server's threads and of this (the client's) thread.
 */
async function findRate(client, serverThreads, concurrency, seconds) {
  const docs = client.db('bench').collection('docs');
  const end = performance.now() + seconds * 1000;
  let operations = 0;
  const loop = async () => {
    while (performance.now() < end) {
      await docs.findOne({ _id: Math.floor(Math.random() * DOCS) });
      operations++;
    }
  };
  const clientThread = threads().length ? [String(process.pid)] : [];
  const [serverBefore, clientBefore] = [cpuMs(serverThreads), cpuMs(clientThread)];
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  return {
    rate: operations / ((performance.now() - start) / 1000),
    serverMicros: (1000 * (cpuMs(serverThreads) - serverBefore)) / operations,
    clientMicros: (1000 * (cpuMs(clientThread) - clientBefore)) / operations,
  };
}

async function main() {
  const embedded = await withNewThreads(() => EmbeddedMongoServer.start({ port: 0 }));
  const stub = await withNewThreads(startStub);
  await seed(embedded.uri);
  const levels = values.concurrency.split(',').map(Number);
  const maxPool = Math.max(...levels);
  const servers = { embedded, stub };
  const clients = {};
  for (const name of ['embedded', 'stub']) {
    clients[name] = await MongoClient.connect(servers[name].uri, { maxPoolSize: maxPool });
    await findRate(clients[name], [], maxPool, 1); // warm-up (JIT, pool)
  }
  const results = { embedded: {}, stub: {} };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const concurrency of levels) {
      for (const name of ['stub', 'embedded']) {
        const result = await findRate(clients[name], servers[name].threads, concurrency, Number(values.seconds));
        (results[name][concurrency] ??= []).push(result);
      }
    }
  }
  console.log(`find by _id, ${DOCS} documents, medians of ${values.rounds} rounds of ${values.seconds} s`);
  for (const concurrency of levels) {
    const [e, s] = [summary(results.embedded[concurrency]), summary(results.stub[concurrency])];
    console.log(
      `concurrency ${String(concurrency).padStart(2)}: ops/s embedded ${e.rate}, stub ${s.rate}` +
        `, ratio ${(e.rate / s.rate).toFixed(2)}x` +
        `   server CPU µs/op embedded ${e.serverMicros}, stub ${s.serverMicros}` +
        `   client CPU µs/op embedded ${e.clientMicros}, stub ${s.clientMicros}`,
    );
  }
  for (const client of Object.values(clients)) await client.close();
  await Promise.all([embedded.stop(), stub.stop()]);
}

function summary(rounds) {
  const of = (key) => Math.round(median(rounds.map((round) => round[key])));
  return { rate: of('rate'), serverMicros: of('serverMicros'), clientMicros: of('clientMicros') };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
